package main

import (
	"math"
	"math/rand/v2"

	"github.com/tessera-app/tessera/heuristics/internal/linear"
)

// A hiddenModel is the alternative crossValidate weighs the linear model
// against (train -cv K -hidden H): a layer of H rectified units over the
// sum of the features' learned vectors, then a softmax over the classes.
// Unlike the linear model it can learn that two words mean something
// together that neither means alone. It is measured, never written: out
// of fold it did no better than the linear model (README, "Field
// classification").
type hiddenModel struct {
	classes int
	units   int
	mask    uint32
	embed   []float32 // bucket-major: embed[b*units+u]
	bias1   []float32
	out     []float32 // class-major: out[c*units+u]
	bias2   []float32
}

// hiddenRate is the AdaGrad learning rate of trainHidden, and
// hiddenL2 its weight decay.
const (
	hiddenRate = 0.05
	hiddenL2   = 1e-4
)

// trainHidden learns a hiddenModel of the given width from examples, with
// o's buckets, epochs and seed: the same examples and options give the
// same model.
func trainHidden(classes []string, ex []linear.Example, o linear.Options, units int) *hiddenModel {
	n := len(classes)
	m := &hiddenModel{
		classes: n, units: units, mask: uint32(1)<<o.Bits - 1,
		embed: make([]float32, units<<o.Bits), bias1: make([]float32, units),
		out: make([]float32, n*units), bias2: make([]float32, n),
	}
	rng := rand.New(rand.NewPCG(o.Seed, o.Seed^0x2545f4914f6cdd1d))
	for i := range m.embed {
		m.embed[i] = float32(rng.NormFloat64() * 0.05)
	}
	for i := range m.out {
		m.out[i] = float32(rng.NormFloat64() * math.Sqrt(2/float64(units)))
	}
	// AdaGrad's sums of squared gradients, one per weight.
	gEmbed, gBias1 := make([]float32, len(m.embed)), make([]float32, units)
	gOut, gBias2 := make([]float32, len(m.out)), make([]float32, n)
	step := func(w, g2 []float32, i int, g float32) {
		g2[i] += g * g
		w[i] -= hiddenRate * g / (float32(math.Sqrt(float64(g2[i]))) + 1e-6)
	}
	order := make([]int, len(ex))
	for i := range order {
		order[i] = i
	}
	pre, p, back := make([]float32, units), make([]float32, n), make([]float32, units)
	for range o.Epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, i := range order {
			e := ex[i]
			m.forward(e.Features, pre, p)
			p[e.Class]-- // the gradient of the log loss at the scores
			clear(back)
			for c := range n {
				step(m.bias2, gBias2, c, p[c])
				row := m.out[c*units : c*units+units]
				for u := range units {
					back[u] += p[c] * row[u]
					step(m.out, gOut, c*units+u, p[c]*max(pre[u], 0)+hiddenL2*row[u])
				}
			}
			for u := range units {
				if pre[u] <= 0 {
					back[u] = 0
				}
				step(m.bias1, gBias1, u, back[u])
			}
			for _, f := range e.Features {
				base := int(f&m.mask) * units
				for u := range units {
					if back[u] != 0 {
						step(m.embed, gEmbed, base+u, back[u]+hiddenL2*m.embed[base+u])
					}
				}
			}
		}
	}
	return m
}

// forward computes the units' inputs into pre and the class
// probabilities into p, returning the likeliest class.
func (m *hiddenModel) forward(features []uint32, pre, p []float32) int {
	copy(pre, m.bias1)
	for _, f := range features {
		row := m.embed[int(f&m.mask)*m.units : int(f&m.mask)*m.units+m.units]
		for u := range row {
			pre[u] += row[u]
		}
	}
	best := 0
	for c := range m.classes {
		s := m.bias2[c]
		row := m.out[c*m.units : c*m.units+m.units]
		for u := range row {
			s += row[u] * max(pre[u], 0)
		}
		p[c] = s
		if p[c] > p[best] {
			best = c
		}
	}
	top := p[best]
	var sum float32
	for c := range p {
		p[c] = float32(math.Exp(float64(p[c] - top)))
		sum += p[c]
	}
	for c := range p {
		p[c] /= sum
	}
	return best
}

// Predict writes the class probabilities for one set of features into p
// and returns the likeliest class, as linear.Model.Predict does.
func (m *hiddenModel) Predict(features []uint32, p []float32) int {
	return m.forward(features, make([]float32, m.units), p)
}
