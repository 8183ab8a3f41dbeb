package release

import (
	"image"
	"image/color"
)

// IconSizes are the hicolor sizes the packages install (pixels square).
var IconSizes = []int{16, 24, 32, 48, 64, 128, 256}

// Scale returns src scaled to size×size by area averaging: every output
// pixel is the coverage-weighted mean of the source pixels under it, in
// premultiplied alpha, so transparent edges do not darken. It is meant for
// downscaling a square icon.
func Scale(src image.Image, size int) *image.NRGBA {
	b := src.Bounds()
	dst := image.NewNRGBA(image.Rect(0, 0, size, size))
	sx := float64(b.Dx()) / float64(size)
	sy := float64(b.Dy()) / float64(size)
	for y := 0; y < size; y++ {
		y0, y1 := float64(y)*sy, float64(y+1)*sy
		for x := 0; x < size; x++ {
			x0, x1 := float64(x)*sx, float64(x+1)*sx
			var r, g, bl, a, w float64
			for py := int(y0); float64(py) < y1 && py < b.Dy(); py++ {
				wy := overlap(y0, y1, float64(py))
				for px := int(x0); float64(px) < x1 && px < b.Dx(); px++ {
					wt := wy * overlap(x0, x1, float64(px))
					cr, cg, cb, ca := src.At(b.Min.X+px, b.Min.Y+py).RGBA() // premultiplied
					r += wt * float64(cr)
					g += wt * float64(cg)
					bl += wt * float64(cb)
					a += wt * float64(ca)
					w += wt
				}
			}
			if w == 0 || a == 0 {
				continue
			}
			// Back from premultiplied 16-bit to straight 8-bit.
			dst.SetNRGBA(x, y, color.NRGBA{
				R: unit(r / a), G: unit(g / a), B: unit(bl / a), A: unit(a / w / 0xffff),
			})
		}
	}
	return dst
}

// overlap is how much of the unit cell [p, p+1) lies within [lo, hi).
func overlap(lo, hi, p float64) float64 {
	return max(0, min(hi, p+1)-max(lo, p))
}

func unit(v float64) uint8 {
	return uint8(min(255, max(0, v*255+0.5)))
}
