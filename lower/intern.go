package lower

import (
	"slices"
	"strconv"

	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/tileir"
)

// layouts interns encodings and linear layouts for one kernel, so that comparing
// encodings, keying memos by them and finding a layout cost a map access, not printing
// or rebuilding.
type layouts struct {
	encIDs   map[encoding]int // by encoding (pointer)
	encTexts map[string]int   // by String(): equal encodings share an id
	linear   map[layoutKey]*linLayout
	llIDs    map[*linLayout]int
	llTexts  map[string]int // by content: equal layouts share an id
	valIDs   map[*tileir.Value]int
}

// maxCachedRank bounds the shapes whose layouts are cached (layoutKey's array).
const maxCachedRank = 8

// layoutKey names the layout of one encoding for one shape.
type layoutKey struct {
	enc, rank int
	shape     [maxCachedRank]int
}

func newLayouts() layouts {
	return layouts{encIDs: map[encoding]int{}, encTexts: map[string]int{}, linear: map[layoutKey]*linLayout{},
		llIDs: map[*linLayout]int{}, llTexts: map[string]int{}, valIDs: map[*tileir.Value]int{}}
}

// encID returns e's interned id: equal encodings get equal ids.
func (c *layouts) encID(e encoding) int {
	if id, ok := c.encIDs[e]; ok {
		return id
	}
	id := intern(c.encTexts, e.String())
	c.encIDs[e] = id
	return id
}

// layout returns e's linear layout for shape, shared by every caller: callers must not
// modify it.
func (c *layouts) layout(e encoding, shape []int) *linLayout {
	if len(shape) > maxCachedRank {
		return e.linear(slices.Clone(shape))
	}
	k := layoutKey{enc: c.encID(e), rank: len(shape)}
	copy(k.shape[:], shape)
	if l, ok := c.linear[k]; ok {
		return l
	}
	l := e.linear(slices.Clone(shape)) // a copy: shape may live on the caller's stack
	c.linear[k] = l
	return l
}

// layoutID returns l's interned id: layouts with equal shapes and bases get equal ids.
func (c *layouts) layoutID(l *linLayout) int {
	if id, ok := c.llIDs[l]; ok {
		return id
	}
	b := appendInts(nil, l.shape)
	for _, bases := range [][][]int{l.reg, l.lane, l.warp} {
		b = append(b, '|')
		for _, v := range bases {
			b = appendInts(b, v)
		}
	}
	id := intern(c.llTexts, string(b))
	c.llIDs[l] = id
	return id
}

// appendInts appends v as comma-terminated decimals, then a semicolon.
func appendInts(b []byte, v []int) []byte {
	for _, x := range v {
		b = strconv.AppendInt(b, int64(x), 10)
		b = append(b, ',')
	}
	return append(b, ';')
}

// intern returns the id of s in ids, adding it when new.
func intern(ids map[string]int, s string) int {
	id, ok := ids[s]
	if !ok {
		id = len(ids)
		ids[s] = id
	}
	return id
}

// memoKind says what a memo entry holds.
type memoKind uint8

const (
	memoConvert      memoKind = iota // value v's registers in encoding id
	memoThreadCoords                 // the thread part of the coordinates of layout id
)

// memoKey identifies a memoized conversion in the scopes.
type memoKey struct {
	kind memoKind
	v    *tileir.Value
	id   int
}

// text encodes k as the scopes' string key: the kind, then the ids of v and id as 8 bytes
// each. Lookups convert it without allocating.
func (g *gen) memoText(k memoKey) [17]byte {
	var b [17]byte
	b[0] = byte(k.kind)
	vid := -1
	if k.v != nil {
		var ok bool
		if vid, ok = g.layouts.valIDs[k.v]; !ok {
			vid = len(g.layouts.valIDs)
			g.layouts.valIDs[k.v] = vid
		}
	}
	for i := range 8 {
		b[1+i], b[9+i] = byte(vid>>(8*i)), byte(k.id>>(8*i))
	}
	return b
}

// memo looks a value up in the conversion scopes, innermost first.
func (g *gen) memo(k memoKey) ([]value.Value, bool) {
	t := g.memoText(k)
	for i := len(g.scopes) - 1; i >= 0; i-- {
		if v, ok := g.scopes[i][string(t[:])]; ok {
			return v, true
		}
	}
	return nil, false
}

func (g *gen) remember(k memoKey, v []value.Value) {
	t := g.memoText(k)
	g.scopes[len(g.scopes)-1][string(t[:])] = v
}

// pushScope and popScope bracket the lowering of a nested region, whose values do not
// dominate the code after it.
func (g *gen) pushScope() { g.scopes = append(g.scopes, map[string][]value.Value{}) }
func (g *gen) popScope()  { g.scopes = g.scopes[:len(g.scopes)-1] }
