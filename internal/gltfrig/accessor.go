package gltfrig

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
)

// Accessor reading. A loader reads binary data through its accessors
// value only, which checks every accessor, buffer view and buffer it
// touches, loads each buffer once when it is first needed and keeps every
// accessor it has read:
//
//	data, err := l.bin.read("skins[0].inverseBindMatrices", i, accMAT4, false)
//	// data.Values holds data.Count × 16 float32s, element after element.
//
// Every rejection is a *check.FieldError at the JSON path of the bad
// value: the referring field for a missing accessor, "accessors[3].count",
// "bufferViews[1].byteStride", "buffers[0].uri", "glb.chunks[1]" and so on.

// Accessor types that can be read, with their component counts.
const (
	accSCALAR = "SCALAR"
	accVEC3   = "VEC3"
	accVEC4   = "VEC4"
	accMAT4   = "MAT4"
)

// glTF component types.
const (
	compByte   = 5120
	compUbyte  = 5121
	compShort  = 5122
	compUshort = 5123
	compUint   = 5125
	compFloat  = 5126
)

// accComponents gives the components of each accessor type; MAT2 and MAT3
// (whose columns are padded for small components) are not read.
var accComponents = map[string]int{accSCALAR: 1, "VEC2": 2, accVEC3: 3, accVEC4: 4, accMAT4: 16}

var compNames = map[int]string{compByte: "BYTE", compUbyte: "UNSIGNED_BYTE", compShort: "SHORT", compUshort: "UNSIGNED_SHORT", compUint: "UNSIGNED_INT", compFloat: "FLOAT"}

func compSize(c int) int {
	switch c {
	case compByte, compUbyte:
		return 1
	case compShort, compUshort:
		return 2
	default:
		return 4
	}
}

// accessorData is one accessor read as float32s.
type accessorData struct {
	Type          string    // accSCALAR, accVEC3, accVEC4 or accMAT4
	ComponentType int       // compFloat, or a normalized integer type
	Count         int       // elements
	Values        []float32 // Count × components, element after element (a MAT4 column-major)
}

type jsonAccessor struct {
	BufferView    *int            `json:"bufferView"`
	ByteOffset    int             `json:"byteOffset"`
	ComponentType *int            `json:"componentType"`
	Normalized    bool            `json:"normalized"`
	Count         *int            `json:"count"`
	Type          *string         `json:"type"`
	Sparse        json.RawMessage `json:"sparse"`
}

type jsonBufferView struct {
	Buffer     *int `json:"buffer"`
	ByteOffset int  `json:"byteOffset"`
	ByteLength *int `json:"byteLength"`
	ByteStride int  `json:"byteStride"`
}

// accessors reads the accessors of one document.
type accessors struct {
	src      *binSource
	raw      []json.RawMessage // accessors
	views    []json.RawMessage // bufferViews
	buffers  []json.RawMessage
	loaded   map[int][]byte
	read     map[int]*accessorData
	readErrs map[int]error
}

func newAccessors(doc *document, src *binSource) *accessors {
	return &accessors{src: src, raw: doc.Accessors, views: doc.BufferViews, buffers: doc.Buffers,
		loaded: map[int][]byte{}, read: map[int]*accessorData{}, readErrs: map[int]error{}}
}

// get reads accessors[i], which the field at ref names, as float32s of
// type typ: FLOAT components, or with normalized also normalized BYTE,
// UNSIGNED_BYTE, SHORT and UNSIGNED_SHORT, converted by the
// specification's formulas (c/127 and c/32767 clamped to -1, c/255,
// c/65535). The result is shared: callers must not change its Values.
func (a *accessors) get(ref string, i int, typ string, normalized bool) (*accessorData, error) {
	if i < 0 || i >= len(a.raw) {
		return nil, bad(ref, i, "no such accessor (%d accessors)", len(a.raw))
	}
	d, err := a.decode(i)
	if err != nil {
		return nil, err
	}
	path := fmt.Sprintf("accessors[%d]", i)
	if d.Type != typ {
		return nil, bad(path+".type", d.Type, "must be %s for %s", typ, ref)
	}
	if d.ComponentType != compFloat && !normalized {
		return nil, bad(path+".componentType", compNames[d.ComponentType], "must be FLOAT (5126) for %s", ref)
	}
	return d, nil
}

// decode reads accessors[i] once, whatever it is asked for.
func (a *accessors) decode(i int) (*accessorData, error) {
	if d, ok := a.read[i]; ok {
		return d, nil
	}
	if err, ok := a.readErrs[i]; ok {
		return nil, err
	}
	d, err := a.decodeNew(i)
	if err != nil {
		a.readErrs[i] = err
		return nil, err
	}
	a.read[i] = d
	return d, nil
}

func (a *accessors) decodeNew(i int) (*accessorData, error) {
	path := fmt.Sprintf("accessors[%d]", i)
	var acc jsonAccessor
	if err := unmarshal(a.raw[i], &acc, path); err != nil {
		return nil, err
	}
	if acc.Type == nil {
		return nil, bad(path+".type", nil, "required")
	}
	comps, ok := accComponents[*acc.Type]
	if !ok {
		return nil, bad(path+".type", *acc.Type, "must be SCALAR, VEC2, VEC3, VEC4 or MAT4 (MAT2 and MAT3 are not read)")
	}
	if acc.ComponentType == nil {
		return nil, bad(path+".componentType", nil, "required")
	}
	ct := *acc.ComponentType
	switch ct {
	case compFloat:
		if acc.Normalized {
			return nil, bad(path+".normalized", true, "must not be true for FLOAT components")
		}
	case compByte, compUbyte, compShort, compUshort:
		if !acc.Normalized {
			return nil, bad(path+".normalized", false, "integer components are only read normalized")
		}
	case compUint:
		return nil, bad(path+".componentType", ct, "UNSIGNED_INT components are not read (they cannot be normalized)")
	default:
		return nil, bad(path+".componentType", ct, "not a glTF component type")
	}
	if acc.Count == nil {
		return nil, bad(path+".count", nil, "required")
	}
	count := *acc.Count
	if count < 1 {
		return nil, bad(path+".count", count, "must be >= 1")
	}
	if acc.Sparse != nil {
		return nil, bad(path+".sparse", nil, "sparse accessors are not read")
	}
	if acc.BufferView == nil {
		return nil, bad(path+".bufferView", nil, "required: an accessor without one holds zeros, which is not read")
	}
	v := *acc.BufferView
	if v < 0 || v >= len(a.views) {
		return nil, bad(path+".bufferView", v, "no such buffer view (%d buffer views)", len(a.views))
	}
	view, buf, err := a.view(v)
	if err != nil {
		return nil, err
	}
	cs := compSize(ct)
	elem := comps * cs
	stride := elem
	if view.ByteStride != 0 {
		stride = view.ByteStride
		if stride < elem {
			return nil, bad(fmt.Sprintf("bufferViews[%d].byteStride", v), stride, "smaller than an element of %s (%d bytes)", path, elem)
		}
	}
	off := acc.ByteOffset
	if off < 0 {
		return nil, bad(path+".byteOffset", off, "must be >= 0")
	}
	if (view.ByteOffset+off)%cs != 0 {
		return nil, bad(path+".byteOffset", off, "the data must start at a multiple of the component size (%d bytes); with the buffer view's byteOffset it starts at byte %d", cs, view.ByteOffset+off)
	}
	n := len(buf) // the view's bytes
	if off > n || n-off < elem {
		return nil, bad(path+".byteOffset", off, "no element fits in bufferViews[%d] (%d bytes) from this offset", v, n)
	}
	// count-1 more elements, stride bytes apart, without multiplying.
	if count-1 > (n-off-elem)/stride {
		return nil, bad(path+".count", count, "%d elements of %d bytes, %d bytes apart from byte %d, do not fit in bufferViews[%d] (%d bytes)", count, elem, stride, off, v, n)
	}
	d := &accessorData{Type: *acc.Type, ComponentType: ct, Count: count, Values: make([]float32, count*comps)}
	for e := 0; e < count; e++ {
		src := buf[off+e*stride:]
		dst := d.Values[e*comps : (e+1)*comps]
		for c := range dst {
			dst[c] = component(src[c*cs:], ct)
		}
	}
	return d, nil
}

// component reads one component, normalized as the specification says.
func component(b []byte, ct int) float32 {
	le := binary.LittleEndian
	switch ct {
	case compByte:
		return max(float32(int8(b[0]))/127, -1)
	case compUbyte:
		return float32(b[0]) / 255
	case compShort:
		return max(float32(int16(le.Uint16(b)))/32767, -1)
	case compUshort:
		return float32(le.Uint16(b)) / 65535
	default:
		return math.Float32frombits(le.Uint32(b))
	}
}

// view checks bufferViews[v] and returns it with its bytes.
func (a *accessors) view(v int) (*jsonBufferView, []byte, error) {
	path := fmt.Sprintf("bufferViews[%d]", v)
	var view jsonBufferView
	if err := unmarshal(a.views[v], &view, path); err != nil {
		return nil, nil, err
	}
	if view.Buffer == nil {
		return nil, nil, bad(path+".buffer", nil, "required")
	}
	b := *view.Buffer
	if b < 0 || b >= len(a.buffers) {
		return nil, nil, bad(path+".buffer", b, "no such buffer (%d buffers)", len(a.buffers))
	}
	if view.ByteLength == nil {
		return nil, nil, bad(path+".byteLength", nil, "required")
	}
	length := *view.ByteLength
	if length < 1 {
		return nil, nil, bad(path+".byteLength", length, "must be >= 1")
	}
	if view.ByteOffset < 0 {
		return nil, nil, bad(path+".byteOffset", view.ByteOffset, "must be >= 0")
	}
	if s := view.ByteStride; s != 0 && (s < 4 || s > 252 || s%4 != 0) {
		return nil, nil, bad(path+".byteStride", s, "must be a multiple of 4 in [4, 252]")
	}
	data, err := a.buffer(b)
	if err != nil {
		return nil, nil, err
	}
	if view.ByteOffset > len(data) {
		return nil, nil, bad(path+".byteOffset", view.ByteOffset, "past the end of buffers[%d] (%d bytes)", b, len(data))
	}
	if length > len(data)-view.ByteOffset {
		return nil, nil, bad(path+".byteLength", length, "runs past the end of buffers[%d] (%d bytes from byte %d)", b, len(data), view.ByteOffset)
	}
	return &view, data[view.ByteOffset : view.ByteOffset+length], nil
}

// buffer returns the bytes of buffers[b], loading them once.
func (a *accessors) buffer(b int) ([]byte, error) {
	if d, ok := a.loaded[b]; ok {
		return d, nil
	}
	path := fmt.Sprintf("buffers[%d]", b)
	var jb jsonBuffer
	if err := unmarshal(a.buffers[b], &jb, path); err != nil {
		return nil, err
	}
	d, err := a.src.loadBuffer(b, &jb)
	if err != nil {
		return nil, err
	}
	a.loaded[b] = d
	return d, nil
}
