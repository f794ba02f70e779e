package answer

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"mime"
	"strings"

	"github.com/brianvoe/gofakeit/v7"
)

// madeBytes makes a body of a media type the document gives neither a
// schema nor an example of: a picture of one pixel for an image type Go
// encodes, an empty element named after what the answer is about for XML,
// and otherwise a few bytes, such as for application/octet-stream or
// application/pdf, which no reader of the document checks.
func madeBytes(mediaType, about string, f *gofakeit.Faker) []byte {
	mt, _, _ := mime.ParseMediaType(mediaType)
	pixel := image.NewRGBA(image.Rect(0, 0, 1, 1))
	pixel.Set(0, 0, color.RGBA{R: uint8(f.IntN(256)), G: uint8(f.IntN(256)), B: uint8(f.IntN(256)), A: 255})
	var buf bytes.Buffer
	switch {
	case mt == "image/png":
		png.Encode(&buf, pixel)
	case mt == "image/gif":
		gif.Encode(&buf, pixel, nil)
	case mt == "image/jpeg":
		jpeg.Encode(&buf, pixel, nil)
	case mt == "application/xml" || mt == "text/xml" || strings.HasSuffix(mt, "+xml"):
		name := xmlName(about)
		buf.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<" + name + "></" + name + ">\n")
	default:
		b := make([]byte, 16+f.IntN(17))
		for i := range b {
			b[i] = byte(f.IntN(256))
		}
		return b
	}
	return buf.Bytes()
}

// xmlName returns about as the name of an XML element: its letters,
// digits, dashes and underscores, or "answer" when that leaves none or
// it does not begin with a letter.
func xmlName(about string) string {
	name := strings.Map(func(r rune) rune {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return r
		}
		return -1
	}, about)
	if name == "" || !(name[0] >= 'a' && name[0] <= 'z' || name[0] >= 'A' && name[0] <= 'Z') {
		return "answer"
	}
	return name
}
