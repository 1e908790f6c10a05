package charts

import (
	"bufio"
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"time"

	"codeberg.org/go-pdf/fpdf"
	stdfnt "golang.org/x/image/font"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// pdfCanvas is a vg.Canvas drawing a PDF through fpdf, like gonum's
// vgpdf, but with the fonts embedded as UTF-8 TrueType (fpdf subsets
// them): vgpdf encodes text as code page 1252, which has no →, ≥ or
// µ's neighbours, so "—" came out as "â€”". Its text is real text:
// pdftotext reads the titles and labels back. The file is the same for
// the same picture (no creation date).
type pdfCanvas struct {
	doc   *fpdf.Fpdf
	w, h  vg.Length
	stack []pdfContext
	fonts map[string]bool // registered, by family and style
	n     int             // images drawn
}

type pdfContext struct {
	color color.Color
	width vg.Length
}

// pdfDPI is PDF's nominal resolution: points.
const pdfDPI = 72

func newPDFCanvas(w, h vg.Length) *pdfCanvas {
	doc := fpdf.NewCustom(&fpdf.InitType{UnitStr: "pt", Size: fpdf.SizeType{Wd: w.Points(), Ht: h.Points()}})
	doc.SetCreationDate(time.Unix(0, 0).UTC()) // reproducible output
	doc.SetModificationDate(time.Unix(0, 0).UTC())
	doc.SetCompression(true)
	doc.SetMargins(0, 0, 0)
	doc.SetAutoPageBreak(false, 0)
	doc.AddPage()
	c := &pdfCanvas{doc: doc, w: w, h: h, stack: make([]pdfContext, 1), fonts: map[string]bool{}}
	// gonum's y axis points up, PDF's (in fpdf) down.
	c.Push()
	c.Translate(vg.Point{X: 0, Y: h})
	c.Scale(1, -1)
	vg.Initialize(c)
	return c
}

func (c *pdfCanvas) ctx() *pdfContext      { return &c.stack[len(c.stack)-1] }
func (c *pdfCanvas) u(l vg.Length) float64 { return l.Dots(pdfDPI) }

// Size implements vg.Canvas.
func (c *pdfCanvas) Size() (w, h vg.Length) { return c.w, c.h }

// SetLineWidth implements vg.Canvas.
func (c *pdfCanvas) SetLineWidth(w vg.Length) {
	c.ctx().width = w
	c.doc.SetLineWidth(c.u(w))
}

// SetLineDash implements vg.Canvas.
func (c *pdfCanvas) SetLineDash(dashes []vg.Length, offs vg.Length) {
	ds := make([]float64, len(dashes))
	for i, d := range dashes {
		ds[i] = c.u(d)
	}
	c.doc.SetDashPattern(ds, c.u(offs))
}

// SetColor implements vg.Canvas.
func (c *pdfCanvas) SetColor(clr color.Color) {
	if clr == nil {
		clr = color.Black
	}
	c.ctx().color = clr
	r, g, b, a := clr.RGBA()
	ri, gi, bi := int(r>>8), int(g>>8), int(b>>8)
	if a > 0 && a < math.MaxUint16 { // premultiplied
		ri, gi, bi = int(r*255/a), int(g*255/a), int(b*255/a)
	}
	c.doc.SetFillColor(ri, gi, bi)
	c.doc.SetDrawColor(ri, gi, bi)
	c.doc.SetTextColor(ri, gi, bi)
	c.doc.SetAlpha(float64(a)/math.MaxUint16, "Normal")
}

// Rotate implements vg.Canvas.
func (c *pdfCanvas) Rotate(r float64) { c.doc.TransformRotate(-r*180/math.Pi, 0, 0) }

// Translate implements vg.Canvas.
func (c *pdfCanvas) Translate(pt vg.Point) { c.doc.TransformTranslate(c.u(pt.X), c.u(pt.Y)) }

// Scale implements vg.Canvas.
func (c *pdfCanvas) Scale(x, y float64) { c.doc.TransformScale(x*100, y*100, 0, 0) }

// Push implements vg.Canvas.
func (c *pdfCanvas) Push() {
	c.stack = append(c.stack, *c.ctx())
	c.doc.TransformBegin()
}

// Pop implements vg.Canvas.
func (c *pdfCanvas) Pop() {
	c.doc.TransformEnd()
	c.stack = c.stack[:len(c.stack)-1]
	// The graphics state fpdf restores is the transform only: the
	// colour and width of the context popped to are set again.
	if k := c.ctx(); k.color != nil {
		c.SetColor(k.color)
		c.SetLineWidth(k.width)
	}
}

// Stroke implements vg.Canvas.
func (c *pdfCanvas) Stroke(p vg.Path) {
	if c.ctx().width > 0 {
		c.path(p, "D")
	}
}

// Fill implements vg.Canvas.
func (c *pdfCanvas) Fill(p vg.Path) { c.path(p, "F") }

func (c *pdfCanvas) path(p vg.Path, style string) {
	var x0, y0 float64
	for _, comp := range p {
		switch comp.Type {
		case vg.MoveComp:
			x0, y0 = c.u(comp.Pos.X), c.u(comp.Pos.Y)
			c.doc.MoveTo(x0, y0)
		case vg.LineComp:
			c.doc.LineTo(c.u(comp.Pos.X), c.u(comp.Pos.Y))
		case vg.ArcComp:
			c.arc(comp, style)
		case vg.CurveComp:
			px, py := c.u(comp.Pos.X), c.u(comp.Pos.Y)
			switch len(comp.Control) {
			case 1:
				c.doc.CurveTo(c.u(comp.Control[0].X), c.u(comp.Control[0].Y), px, py)
			case 2:
				c.doc.CurveBezierCubicTo(c.u(comp.Control[0].X), c.u(comp.Control[0].Y), c.u(comp.Control[1].X), c.u(comp.Control[1].Y), px, py)
			}
		case vg.CloseComp:
			c.doc.LineTo(x0, y0)
			c.doc.ClosePath()
		}
	}
	c.doc.DrawPath(style)
}

func (c *pdfCanvas) arc(comp vg.PathComp, style string) {
	x0 := comp.Pos.X + comp.Radius*vg.Length(math.Cos(comp.Start))
	y0 := comp.Pos.Y + comp.Radius*vg.Length(math.Sin(comp.Start))
	c.doc.LineTo(c.u(x0), c.u(y0))
	const deg = 180 / math.Pi
	r := c.u(comp.Radius)
	beg := comp.Start * deg
	c.doc.Arc(c.u(comp.Pos.X), c.u(comp.Pos.Y), r, r, comp.Angle*deg, beg, beg+comp.Angle*deg, style)
	x1 := comp.Pos.X + comp.Radius*vg.Length(math.Cos(comp.Start+comp.Angle))
	y1 := comp.Pos.Y + comp.Radius*vg.Length(math.Sin(comp.Start+comp.Angle))
	c.doc.MoveTo(c.u(x1), c.u(y1))
}

// FillString implements vg.Canvas: the text in the face's own font,
// embedded as UTF-8 TrueType.
func (c *pdfCanvas) FillString(f font.Face, pt vg.Point, s string) {
	if f.Font.Size == 0 {
		return
	}
	style := ""
	if f.Font.Weight == stdfnt.WeightBold {
		style += "B"
	}
	if f.Font.Style == stdfnt.StyleItalic {
		style += "I"
	}
	name := f.Name()
	if key := name + "/" + style; !c.fonts[key] {
		var ttf bytes.Buffer
		if _, err := f.Face.WriteSourceTo(nil, &ttf); err != nil {
			c.doc.SetError(fmt.Errorf("font %s: %w", name, err))
			return
		}
		c.doc.AddUTF8FontFromBytes(name, style, ttf.Bytes())
		c.fonts[key] = true
	}
	c.doc.SetFont(name, style, c.u(f.Font.Size))
	c.Push()
	defer c.Pop()
	c.Translate(pt)
	c.Scale(1, -1) // text upright in fpdf's downward y
	// The baseline at pt: fpdf writes a cell's text 0.3 of the font
	// size below the cell's y (height 0, left-aligned after the cell's
	// margin). MoveTo, not SetXY, which takes negative values as from
	// the page's far edge.
	c.doc.MoveTo(-c.doc.GetCellMargin(), -0.3*c.u(f.Font.Size))
	c.doc.CellFormat(c.doc.GetStringWidth(s), 0, s, "", 0, "L", false, 0, "")
}

// DrawImage implements vg.Canvas.
func (c *pdfCanvas) DrawImage(rect vg.Rectangle, img image.Image) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		c.doc.SetError(err)
		return
	}
	c.n++
	name := fmt.Sprintf("image_%03d.png", c.n)
	opts := fpdf.ImageOptions{ImageType: "png", ReadDpi: true}
	c.doc.RegisterImageOptionsReader(name, opts, &buf)
	sz := rect.Size()
	c.doc.ImageOptions(name, c.u(rect.Min.X), c.u(rect.Min.Y), c.u(sz.X), c.u(sz.Y), false, opts, 0, "")
}

// WriteTo implements io.WriterTo; the canvas is closed.
func (c *pdfCanvas) WriteTo(w io.Writer) (int64, error) {
	c.Pop()
	cw := &countWriter{w: w}
	b := bufio.NewWriter(cw)
	if err := c.doc.Output(b); err != nil {
		return cw.n, err
	}
	err := b.Flush()
	return cw.n, err
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
