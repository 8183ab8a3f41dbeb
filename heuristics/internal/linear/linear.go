// Package linear is a multinomial logistic regression over hashed sparse
// features: the learned part of field classification. It owns the model's
// file format, inference, and the seeded training the learning command
// runs; it knows nothing of forms.
package linear

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sort"
)

// magic opens a model file; the digit is the format version.
const magic = "TSLM4"

// ErrFormat is returned for a model file Tessera cannot read.
var ErrFormat = errors.New("linear: not a model file")

// A Model scores classes from hashed features: for each class, the bias
// plus the weights of the features present, then a softmax at the model's
// temperature.
type Model struct {
	// Classes names the classes in score order.
	Classes []string
	// Bits is log2 of the number of feature buckets.
	Bits uint8
	// Temperature divides the scores before the softmax (fitted on
	// predictions the model made for data it did not learn from, so that
	// its probabilities are calibrated).
	Temperature float32
	// AgreeTemperature replaces Temperature where the likeliest class
	// agrees with the rules: two voices that agree are right more often
	// than the model's overall temperature says.
	AgreeTemperature float32
	// Calibration maps a confidence the classifier shows to the share of
	// such fills that were right, on sites neither the rules nor the model
	// were tuned on (see Calibrate), one map per kind of verdict (the page's
	// autocomplete, the rules alone, the rules doubted by the model, the
	// two agreeing, the model overriding: the same number means different
	// odds from each); a kind without a map is shown as is.
	Calibration map[string][]Point
	// w holds the weights bucket-major: w[b*len(Classes)+c], scaled by
	// scale[c] and stored as int8.
	w     []int8
	scale []float32
	bias  []float32
	// live marks the buckets with a weight other than 0: most words of a
	// page were never seen in training, and their rows are skipped.
	live []uint64
	// packed holds w for Scores, lanes uint64 words per bucket (index).
	packed []uint64
	lanes  int
}

// index marks the buckets whose rows hold a weight, and lays the weights
// out for Scores: each row as 16-bit lanes, four to a uint64, each weight
// offset by 128 so that no lane is negative.
func (m *Model) index() {
	n := len(m.Classes)
	m.live = make([]uint64, (m.Buckets()+63)/64)
	m.lanes = (n + 3) / 4
	m.packed = make([]uint64, int(m.Buckets())*m.lanes)
	for b := 0; b < int(m.Buckets()); b++ {
		row := m.w[b*n : b*n+n]
		for c, v := range row {
			if v != 0 {
				m.live[b/64] |= 1 << (b % 64)
			}
			m.packed[b*m.lanes+c/4] |= uint64(int(v)+128) << (16 * (c % 4))
		}
	}
}

// Buckets returns the number of feature buckets.
func (m *Model) Buckets() uint32 { return 1 << m.Bits }

// Predict writes the probability of every class for one set of features
// into p (len(Classes) long) and returns the index of the likeliest.
func (m *Model) Predict(features []uint32, p []float32) int {
	m.Scores(features, p)
	return Softmax(p, m.Temperature)
}

// Scores writes the score of every class for one set of features into z
// (len(Classes) long): Softmax turns them into probabilities.
func (m *Model) Scores(features []uint32, z []float32) {
	n := len(m.Classes)
	// The rows are summed four classes at a time: 16-bit lanes of
	// weights offset by 128 (index), so each lane gains at most 255 a
	// row, and is emptied into the int32 sums every 255 rows, before it
	// could carry into its neighbour.
	var buf [64]int32
	sum := buf[:0]
	if n <= len(buf) {
		sum = buf[:n]
	} else {
		sum = make([]int32, n)
	}
	var lanesBuf [16]uint64
	acc := lanesBuf[:0]
	if m.lanes <= len(lanesBuf) {
		acc = lanesBuf[:m.lanes]
	} else {
		acc = make([]uint64, m.lanes)
	}
	rows := 0
	flush := func() {
		for c := range n {
			sum[c] += int32(acc[c/4]>>(16*(c%4))&0xffff) - 128*int32(rows)
		}
		clear(acc)
		rows = 0
	}
	mask := m.Buckets() - 1
	for _, f := range features {
		b := f & mask
		if m.live[b/64]&(1<<(b%64)) == 0 {
			continue
		}
		row := m.packed[int(b)*m.lanes : int(b)*m.lanes+m.lanes]
		acc := acc[:len(row)] // lets the compiler drop the bounds checks
		for k, v := range row {
			acc[k] += v
		}
		if rows++; rows == 255 {
			flush()
		}
	}
	flush()
	for c := range n {
		z[c] = float32(sum[c])*m.scale[c] + m.bias[c]
	}
}

// Softmax turns scores into probabilities at temperature t, in place,
// and returns the index of the likeliest class.
func Softmax(z []float32, t float32) int {
	for c := range z {
		z[c] /= t
	}
	return softmax(z)
}

// softmax turns scores into probabilities in place and returns the index
// of the largest.
func softmax(p []float32) int {
	best := 0
	for c := range p {
		if p[c] > p[best] {
			best = c
		}
	}
	top := p[best]
	var sum float32
	for c := range p {
		if d := p[c] - top; d > -12 {
			p[c] = exp(d)
		} else {
			// Below e^-12 (6e-6) of the likeliest class: nothing a
			// confidence shown in percent can show.
			p[c] = 0
		}
		sum += p[c]
	}
	for c := range p {
		p[c] /= sum
	}
	return best
}

// A Point is one knot of a calibration map: shown confidence X was right
// Y of the time.
type Point struct{ X, Y float32 }

// Calibrate maps a confidence of a verdict of the given kind through
// that kind's calibration map: linear between knots, the first knot's
// ratio below it, the last knot's value above. A kind without a map
// is read through the map of kind "", and without that keeps its
// confidence.
func (m *Model) Calibrate(kind string, x float32) float32 {
	k, ok := m.Calibration[kind]
	if !ok {
		k = m.Calibration[""]
	}
	switch {
	case len(k) == 0:
		return x
	case x <= k[0].X:
		return x * k[0].Y / k[0].X
	case x >= k[len(k)-1].X:
		return k[len(k)-1].Y
	}
	for i := 1; i < len(k); i++ {
		if x <= k[i].X {
			t := (x - k[i-1].X) / (k[i].X - k[i-1].X)
			return k[i-1].Y + t*(k[i].Y-k[i-1].Y)
		}
	}
	return x
}

// minBlock is the fewest fills a knot of a calibration map stands for: a
// share right measured on fewer moves with a handful of pages.
const minBlock = 40

// maxKnots bounds a calibration map's knots (the file stores the count in
// a byte).
const maxKnots = 32

// FitCalibration returns a monotone calibration map from pairs of shown
// confidence and whether the fill was right: isotonic regression (pool
// adjacent violators over the fills sorted by confidence), blocks of
// fewer than minBlock fills pooled with a neighbour, each block a knot at
// its mean confidence and share right.
func FitCalibration(conf []float32, right []bool) []Point {
	type block struct{ n, ok, sum float64 }
	idx := make([]int, len(conf))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return conf[idx[a]] < conf[idx[b]] })
	var bs []block
	for j := 0; j < len(idx); {
		// Equal confidences are one block: the map can only tell them apart
		// by the confidence.
		var b block
		c := conf[idx[j]]
		for ; j < len(idx) && conf[idx[j]] == c; j++ {
			b.n++
			b.sum += float64(c)
			if right[idx[j]] {
				b.ok++
			}
		}
		bs = append(bs, b)
	}
	merge := func(i int) {
		bs[i] = block{bs[i].n + bs[i+1].n, bs[i].ok + bs[i+1].ok, bs[i].sum + bs[i+1].sum}
		bs = append(bs[:i+1], bs[i+2:]...)
	}
	for changed := true; changed; {
		changed = false
		// Pool adjacent violators.
		for i := 0; i+1 < len(bs); {
			if bs[i].ok/bs[i].n >= bs[i+1].ok/bs[i+1].n {
				merge(i)
				changed = true
				if i > 0 {
					i--
				}
				continue
			}
			i++
		}
		// Pool small blocks with the neighbour nearer in share right.
		for i := 0; i < len(bs) && len(bs) > 1; i++ {
			if bs[i].n >= minBlock {
				continue
			}
			switch {
			case i == 0:
				merge(0)
			case i == len(bs)-1:
				merge(i - 1)
			case bs[i].ok/bs[i].n-bs[i-1].ok/bs[i-1].n < bs[i+1].ok/bs[i+1].n-bs[i].ok/bs[i].n:
				merge(i - 1)
			default:
				merge(i)
			}
			changed = true
			break
		}
	}
	for len(bs) > maxKnots {
		// Too many knots: pool the adjacent pair that stands for fewest.
		j := 0
		for i := 1; i+1 < len(bs); i++ {
			if bs[i].n+bs[i+1].n < bs[j].n+bs[j+1].n {
				j = i
			}
		}
		merge(j)
	}
	out := make([]Point, 0, len(bs))
	for _, b := range bs {
		out = append(out, Point{float32(b.sum / b.n), float32(b.ok / b.n)})
	}
	return out
}

// exp approximates e^x for x in [-12, 0] within 1e-4 relative: 2 to the
// power x·log2(e), the integer part in the exponent bits and the fraction
// by a cubic. It spares the classifier most of a math.Exp per class.
func exp(x float32) float32 {
	y := x * 1.442695041
	i := int32(y)
	if y < float32(i) {
		i--
	}
	f := y - float32(i)
	p := 1 + f*(0.6951786+f*(0.2262461+f*0.0785919))
	return math.Float32frombits(uint32(i+127)<<23) * p
}

// MarshalBinary encodes the model: magic, bits, the two temperatures, the
// calibration map, the class
// names, then per class its scale and bias, then the int8 weights.
func (m *Model) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(magic)
	b.WriteByte(m.Bits)
	binary.Write(&b, binary.LittleEndian, m.Temperature)
	binary.Write(&b, binary.LittleEndian, m.AgreeTemperature)
	kinds := make([]string, 0, len(m.Calibration))
	for k := range m.Calibration {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	b.WriteByte(byte(len(kinds)))
	for _, k := range kinds {
		b.WriteByte(byte(len(k)))
		b.WriteString(k)
		b.WriteByte(byte(len(m.Calibration[k])))
		binary.Write(&b, binary.LittleEndian, m.Calibration[k])
	}
	binary.Write(&b, binary.LittleEndian, uint16(len(m.Classes)))
	for _, c := range m.Classes {
		b.WriteByte(byte(len(c)))
		b.WriteString(c)
	}
	binary.Write(&b, binary.LittleEndian, m.scale)
	binary.Write(&b, binary.LittleEndian, m.bias)
	for _, v := range m.w {
		b.WriteByte(byte(v))
	}
	return b.Bytes(), nil
}

// maxBits bounds the bucket count a model file may claim.
const maxBits = 22

// Decode reads a model written by MarshalBinary.
func Decode(data []byte) (*Model, error) {
	r := bytes.NewReader(data)
	head := make([]byte, len(magic)+1)
	if _, err := io.ReadFull(r, head); err != nil || string(head[:len(magic)]) != magic {
		return nil, ErrFormat
	}
	m := &Model{Bits: head[len(magic)]}
	if m.Bits == 0 || m.Bits > maxBits {
		return nil, fmt.Errorf("%w: %d bucket bits", ErrFormat, m.Bits)
	}
	var n uint16
	if binary.Read(r, binary.LittleEndian, &m.Temperature) != nil || binary.Read(r, binary.LittleEndian, &m.AgreeTemperature) != nil {
		return nil, ErrFormat
	}
	nmaps, err := r.ReadByte()
	if err != nil {
		return nil, ErrFormat
	}
	m.Calibration = make(map[string][]Point, nmaps)
	for range nmaps {
		l, err := r.ReadByte()
		if err != nil {
			return nil, ErrFormat
		}
		kind := make([]byte, l)
		if _, err := io.ReadFull(r, kind); err != nil {
			return nil, ErrFormat
		}
		nk, err := r.ReadByte()
		if err != nil {
			return nil, ErrFormat
		}
		ks := make([]Point, nk)
		if binary.Read(r, binary.LittleEndian, ks) != nil {
			return nil, ErrFormat
		}
		for i, k := range ks {
			if !(k.X > 0 && k.X <= 1.01 && k.Y >= 0 && k.Y <= 1) || i > 0 && !(k.X > ks[i-1].X) {
				return nil, fmt.Errorf("%w: calibration knot %v", ErrFormat, k)
			}
		}
		m.Calibration[string(kind)] = ks
	}
	if !(m.Temperature > 0) || !(m.AgreeTemperature > 0) {
		return nil, fmt.Errorf("%w: temperatures %v, %v", ErrFormat, m.Temperature, m.AgreeTemperature)
	}
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil || n == 0 {
		return nil, ErrFormat
	}
	for range n {
		l, err := r.ReadByte()
		if err != nil {
			return nil, ErrFormat
		}
		name := make([]byte, l)
		if _, err := io.ReadFull(r, name); err != nil {
			return nil, ErrFormat
		}
		m.Classes = append(m.Classes, string(name))
	}
	m.scale, m.bias = make([]float32, n), make([]float32, n)
	if binary.Read(r, binary.LittleEndian, m.scale) != nil || binary.Read(r, binary.LittleEndian, m.bias) != nil {
		return nil, ErrFormat
	}
	want := int(m.Buckets()) * int(n)
	if r.Len() != want {
		return nil, fmt.Errorf("%w: %d weight bytes, want %d", ErrFormat, r.Len(), want)
	}
	m.w = make([]int8, want)
	for i := range m.w {
		v, _ := r.ReadByte()
		m.w[i] = int8(v)
	}
	m.index()
	return m, nil
}

// An Example is one labelled set of features.
type Example struct {
	Features []uint32
	Class    int
	// Group keeps examples of one site together when the data is split
	// into folds.
	Group string
}

// Options are the training settings.
type Options struct {
	Bits   uint8
	Epochs int
	// Rate is AdaGrad's learning rate, L2 the weight decay.
	Rate, L2 float64
	Seed     uint64
}

// Train learns a model for classes from examples by AdaGrad over the
// cross-entropy with L2 decay, visiting examples in an order drawn from
// seed: the same inputs give the same model. The temperature is 1.
func Train(classes []string, ex []Example, o Options) *Model {
	n := len(classes)
	buckets := 1 << o.Bits
	mask := uint32(buckets - 1)
	w := make([]float64, buckets*n)
	g2 := make([]float64, buckets*n)
	bias := make([]float64, n)
	bg2 := make([]float64, n)
	rng := rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15))
	order := make([]int, len(ex))
	for i := range order {
		order[i] = i
	}
	p := make([]float64, n)
	for range o.Epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, i := range order {
			e := ex[i]
			copy(p, bias)
			for _, f := range e.Features {
				row := w[int(f&mask)*n : int(f&mask)*n+n]
				for c := range n {
					p[c] += row[c]
				}
			}
			top := p[0]
			for _, v := range p {
				top = max(top, v)
			}
			var sum float64
			for c := range p {
				p[c] = math.Exp(p[c] - top)
				sum += p[c]
			}
			for c := range p {
				p[c] /= sum
			}
			p[e.Class]--
			for c := range n {
				g := p[c]
				bg2[c] += g * g
				bias[c] -= o.Rate * g / (math.Sqrt(bg2[c]) + 1e-8)
			}
			for _, f := range e.Features {
				base := int(f&mask) * n
				for c := range n {
					k := base + c
					g := p[c] + o.L2*w[k]
					g2[k] += g * g
					w[k] -= o.Rate * g / (math.Sqrt(g2[k]) + 1e-8)
				}
			}
		}
	}
	return quantize(classes, o.Bits, w, bias)
}

// quantize stores each class's weights as int8 with one scale per class.
func quantize(classes []string, bits uint8, w, bias []float64) *Model {
	n := len(classes)
	m := &Model{Classes: classes, Bits: bits, Temperature: 1, AgreeTemperature: 1, w: make([]int8, len(w)), scale: make([]float32, n), bias: make([]float32, n)}
	for c := range n {
		var top float64
		for k := c; k < len(w); k += n {
			top = max(top, math.Abs(w[k]))
		}
		s := top / 127
		if s == 0 {
			s = 1
		}
		m.scale[c], m.bias[c] = float32(s), float32(bias[c])
		for k := c; k < len(w); k += n {
			m.w[k] = int8(math.Round(w[k] / s))
		}
	}
	m.index()
	return m
}

// FitTemperature returns the temperature that minimises the negative log
// likelihood of the true classes under m's scores, searched on a grid:
// given predictions for data m did not learn from, it calibrates m.
func FitTemperature(m *Model, ex []Example) float32 {
	best, bestNLL := float32(1), math.Inf(1)
	p := make([]float32, len(m.Classes))
	for t := float32(0.2); t <= 3.0; t += 0.05 {
		m.Temperature = t
		var nll float64
		for _, e := range ex {
			m.Predict(e.Features, p)
			nll -= math.Log(math.Max(float64(p[e.Class]), 1e-9))
		}
		if nll < bestNLL {
			best, bestNLL = t, nll
		}
	}
	m.Temperature = best
	return best
}

// Decide returns the model's likeliest class and its probability, from
// the probabilities p and the index best that Predict returned, where the
// model is sure enough to speak over the rules' verdict rule: sure where
// the rules decided nothing (decided false) or agree, override where they
// decided something else ("" included: a veto is a verdict). Otherwise ok
// is false: the rules' verdict stands.
func (m *Model) Decide(rule string, decided bool, p []float32, best int, sure, override float32) (class string, conf float32, ok bool) {
	need := sure
	if decided && m.Classes[best] != rule {
		need = override
	}
	if p[best] < need {
		return "", 0, false
	}
	return m.Classes[best], p[best], true
}
