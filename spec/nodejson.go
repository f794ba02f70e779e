package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// A document is parsed once, as a YAML node tree, and kin-openapi reads
// the JSON written from that tree rather than parsing the source a second
// time: its YAML reader checks every key of a mapping against every other,
// which took two minutes for a document of 60,000 paths, and it tries the
// source as JSON first, so a YAML document it refuses got a JSON error
// before the YAML one that matters. Writing the JSON here does what that
// reader did, in time and memory in proportion to the JSON written: a key
// given twice is refused, merge keys (<<) are merged, and aliases are
// expanded only as far as yaml.v3 expands them, so that an alias bomb is
// refused rather than written.

// Bounds of nesting. kin-openapi decodes each level of a schema again, and
// each of its members, the levels below included: the work of reading a
// document grows with the depth of every byte of it. Published documents
// nest their bytes 5 to 11 levels deep on average, and up to 17; a
// document of 5 MB nested 100 levels deep took 16 s to read. A document
// nested deeper than averageDepth on average, by its bytes, is refused,
// past deepBytes of work that costs little whatever the depth.
// The JSON decoder refuses a depth of 10,000, without a line: maxLevels
// is refused before, with one.
const (
	averageDepth = 32
	deepBytes    = 64 << 20
	maxLevels    = 1000
)

// tooDeep is a document nested deeper than petmock reads.
type tooDeep struct{ msg string }

func (e *tooDeep) Error() string { return e.msg }

// Bounds of alias expansion, those of yaml.v3's decoder: up to 400,000
// values, 99% of them may come through aliases, a share that falls to 10%
// at 4,000,000 values.
const (
	aliasRatioLow  = 400_000
	aliasRatioHigh = 4_000_000
)

// allowedAliasRatio is the share of the values written so far that may
// have come through aliases.
func allowedAliasRatio(values int) float64 {
	switch {
	case values <= aliasRatioLow:
		return 0.99
	case values >= aliasRatioHigh:
		return 0.10
	}
	return 0.99 - 0.89*float64(values-aliasRatioLow)/float64(aliasRatioHigh-aliasRatioLow)
}

// nodeWriter writes a node tree as JSON, counting what it writes.
type nodeWriter struct {
	dst []byte
	// values counts the keys and values written, aliased those of them
	// written through an alias, and inAlias the aliases being written.
	values, aliased, inAlias int
	// mappings is how many mappings the writer is in, and levels how
	// many mappings and sequences.
	mappings, levels int
	// weight is the bytes written, each counted once for each level it
	// is written at; deepest is the most levels any was written at, at
	// the line deepLine.
	weight            int64
	deepest, deepLine int
	// servers and paths are where the values of the top-level members
	// of those names were written in dst, if they were, and items where
	// those of the members of paths were.
	servers, paths span
	items          []keyed
	inPaths        bool
	// outlining is set to make the outline of what is written; last is
	// the outline of the node written last, nil for a scalar.
	outlining bool
	last      *outline
}

// keyed is a member of a mapping written as JSON: its key, and where its
// value is.
type keyed struct {
	key   string
	value span
}

// span is where a part of a text is, from start to end; both are zero for
// none.
type span struct{ start, end int }

// nodeJSON appends the JSON encoding of a YAML node to dst, mappings in
// the order written. It fails on a key given twice in a mapping, a key
// that is not a scalar, a number JSON has no form for, and on aliases
// that expand the document past what yaml.v3 allows; its errors name the
// line.
func nodeJSON(dst []byte, n *yaml.Node) ([]byte, error) {
	w := &nodeWriter{dst: dst}
	if err := w.node(n); err != nil {
		return nil, err
	}
	return w.dst, nil
}

// documentJSON writes the root mapping of a document, parsed from
// source, as JSON, as nodeJSON does, with its outline, and says where in it the values of its servers and paths members
// are, and those of the members of paths.
func documentJSON(source []byte, root *yaml.Node) (text, *outline, error) {
	w := &nodeWriter{outlining: true}
	if err := w.node(root); err != nil {
		return text{}, nil, err
	}
	if w.weight > averageDepth*int64(len(w.dst))+deepBytes {
		return text{}, nil, &tooDeep{fmt.Sprintf("line %d: values are nested %d levels deep here, and %d on average, by their bytes, where petmock reads up to %d on average",
			w.deepLine, w.deepest, w.weight/int64(max(len(w.dst), 1)), averageDepth)}
	}
	return text{source: source, json: w.dst, servers: w.servers, paths: w.paths, items: w.items}, w.last, nil
}

// count counts one value written at n, and fails once aliases have
// expanded the document too far.
func (w *nodeWriter) count(n *yaml.Node) error {
	w.values++
	if w.inAlias > 0 {
		w.aliased++
	}
	if w.aliased > 100 && w.values > 1000 && float64(w.aliased)/float64(w.values) > allowedAliasRatio(w.values) {
		return fmt.Errorf("line %d: the document contains excessive aliasing, as an alias bomb does; write the repeated parts once and refer to them with $ref", n.Line)
	}
	return nil
}

func (w *nodeWriter) node(n *yaml.Node) error {
	if err := w.count(n); err != nil {
		return err
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) != 1 {
			return errors.New("empty document")
		}
		return w.node(n.Content[0])
	case yaml.AliasNode:
		w.inAlias++
		defer func() { w.inAlias-- }()
		return w.node(n.Alias)
	case yaml.MappingNode:
		if err := w.enter(n); err != nil {
			return err
		}
		defer func() { w.levels-- }()
		return w.mapping(n)
	case yaml.SequenceNode:
		if err := w.enter(n); err != nil {
			return err
		}
		defer func() { w.levels-- }()
		var o *outline
		if w.outlining {
			o = &outline{kids: make([]*outline, 0, len(n.Content))}
		}
		w.dst = append(w.dst, '[')
		for i, c := range n.Content {
			if i > 0 {
				w.dst = append(w.dst, ',')
			}
			if err := w.node(c); err != nil {
				return err
			}
			if o != nil {
				o.kids = append(o.kids, w.last)
			}
		}
		w.dst = append(w.dst, ']')
		w.last = o
		return nil
	case yaml.ScalarNode:
		start := len(w.dst)
		var err error
		w.dst, err = scalarJSON(w.dst, n)
		w.weigh(len(w.dst)-start, n)
		w.last = nil
		return err
	}
	return fmt.Errorf("line %d: a YAML node of kind %d has no JSON form", n.Line, n.Kind)
}

// enter goes one level down, into the mapping or sequence n, and weighs
// its brackets.
func (w *nodeWriter) enter(n *yaml.Node) error {
	w.levels++
	if w.levels > maxLevels {
		return &tooDeep{fmt.Sprintf("line %d: values are nested more than %d levels deep here", n.Line, maxLevels)}
	}
	w.weigh(2, n)
	return nil
}

// weigh counts n bytes written for the node at, at the levels the writer
// is in.
func (w *nodeWriter) weigh(n int, at *yaml.Node) {
	w.weight += int64(n) * int64(w.levels)
	if w.levels > w.deepest {
		w.deepest, w.deepLine = w.levels, at.Line
	}
}

// pair is one key and value of a mapping; merged is set for one that a
// merge key (<<) brings in.
type pair struct {
	key, value *yaml.Node
	merged     bool
}

func (w *nodeWriter) mapping(n *yaml.Node) error {
	pairs, err := w.pairs(n)
	if err != nil {
		return err
	}
	w.mappings++
	defer func() { w.mappings-- }()
	var o *outline
	if w.outlining {
		o = &outline{keys: make([]string, 0, len(pairs)), kids: make([]*outline, 0, len(pairs))}
	}
	w.dst = append(w.dst, '{')
	for i, p := range pairs {
		if i > 0 {
			w.dst = append(w.dst, ',')
		}
		if err := w.member(p); err != nil {
			return err
		}
		if o != nil {
			o.keys = append(o.keys, p.key.Value)
			o.kids = append(o.kids, w.last)
		}
	}
	w.dst = append(w.dst, '}')
	w.last = o
	return nil
}

// member writes one member of a mapping. A merged one counts as written
// through an alias.
func (w *nodeWriter) member(p pair) error {
	if p.merged {
		w.inAlias++
		defer func() { w.inAlias-- }()
	}
	if err := w.count(p.key); err != nil {
		return err
	}
	k, _ := json.Marshal(p.key.Value)
	w.dst = append(append(w.dst, k...), ':')
	w.weigh(len(k)+2, p.key)
	start := len(w.dst)
	top := w.mappings == 1
	paths := top && p.key.Value == "paths" && resolved(p.value).Kind == yaml.MappingNode
	if paths {
		w.inPaths = true
		defer func() { w.inPaths = false }()
	}
	if err := w.node(p.value); err != nil {
		return err
	}
	at := span{start, len(w.dst)}
	switch {
	case top && p.key.Value == "servers":
		w.servers = at
	case paths:
		w.paths = at
	case w.inPaths && w.mappings == 2:
		w.items = append(w.items, keyed{p.key.Value, at})
	}
	return nil
}

// pairs returns the members of the mapping n in order, those of the
// mappings it merges with << where the << is, without the keys n gives
// itself: n's own keys win over merged ones, and an earlier merged mapping
// over a later one, as YAML's merge keys have it.
func (w *nodeWriter) pairs(n *yaml.Node) ([]pair, error) {
	own := make(map[string]int, len(n.Content)/2) // line of each key n gives
	merges := false
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if isMerge(k) {
			merges = true
			continue
		}
		if k.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("line %d: a key that is not a string has no JSON form", k.Line)
		}
		if line, dup := own[k.Value]; dup {
			return nil, fmt.Errorf("line %d: the key %q is given twice, first at line %d", k.Line, k.Value, line)
		}
		own[k.Value] = k.Line
	}
	out := make([]pair, 0, len(n.Content)/2)
	if !merges {
		for i := 0; i+1 < len(n.Content); i += 2 {
			out = append(out, pair{key: n.Content[i], value: n.Content[i+1]})
		}
		return out, nil
	}
	merged := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !isMerge(k) {
			out = append(out, pair{key: k, value: v})
			continue
		}
		sources := []*yaml.Node{v}
		if resolved(v).Kind == yaml.SequenceNode {
			sources = resolved(v).Content
		}
		for _, src := range sources {
			m := resolved(src)
			if m.Kind != yaml.MappingNode {
				return nil, fmt.Errorf("line %d: a merge key (<<) takes a mapping or a list of mappings", src.Line)
			}
			members, err := w.mergedPairs(m)
			if err != nil {
				return nil, err
			}
			for _, p := range members {
				if _, mine := own[p.key.Value]; mine || merged[p.key.Value] {
					continue
				}
				merged[p.key.Value] = true
				p.merged = true
				out = append(out, p)
			}
		}
	}
	return out, nil
}

// mergedPairs returns the members of m, a mapping merged into another.
// Each counts as a value written through an alias, so that merges of
// merges cannot expand without bound either.
func (w *nodeWriter) mergedPairs(m *yaml.Node) ([]pair, error) {
	w.inAlias++
	defer func() { w.inAlias-- }()
	members, err := w.pairs(m)
	if err != nil {
		return nil, err
	}
	for _, p := range members {
		if err := w.count(p.key); err != nil {
			return nil, err
		}
	}
	return members, nil
}

// isMerge reports whether k is the merge key, <<.
func isMerge(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge"
}

// resolved returns what n stands for: the node an alias names, or n.
func resolved(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func scalarJSON(dst []byte, n *yaml.Node) ([]byte, error) {
	switch n.ShortTag() {
	case "!!null":
		return append(dst, "null"...), nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, err
		}
		return strconv.AppendBool(dst, b), nil
	case "!!int":
		var i int64
		if err := n.Decode(&i); err == nil {
			return strconv.AppendInt(dst, i, 10), nil
		}
		var u uint64
		if err := n.Decode(&u); err != nil {
			return nil, err
		}
		return strconv.AppendUint(dst, u, 10), nil
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, err
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, fmt.Errorf("line %d: %s has no JSON form", n.Line, n.Value)
		}
		return strconv.AppendFloat(dst, f, 'g', -1, 64), nil
	}
	return appendJSONString(dst, n.Value), nil
}

// appendJSONString appends s to dst as a JSON string, with <, > and &
// as they are.
func appendJSONString(dst []byte, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s) // a string always encodes
	return append(dst, bytes.TrimRight(buf.Bytes(), "\n")...)
}
