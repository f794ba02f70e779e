package spec

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"go.yaml.in/yaml/v3"
)

// ReadOptions say how a document is read. The zero value reads it
// leniently, as a team bringing its own document expects a mock to: an
// example or a default that does not match its own schema is dropped, an
// enum, a default or a const of the wrong JSON type is read as its type
// (coerce.go), an empty info.title or info.version is let pass, and a slip
// whose meaning is clear, such as a response without a description or an
// OpenAPI 3.1 keyword in a 3.0 schema, is repaired (repair.go), each with
// one line in Contract.Warnings that names the place in the document and
// why.
type ReadOptions struct {
	// Strict refuses such a document instead, in one line that names the
	// first place at fault and what to change there.
	Strict bool
}

// Read parses and validates a document, YAML or JSON, OpenAPI 3 or
// Swagger 2.0, and reads its contract. A Swagger 2.0 document is converted
// to OpenAPI 3.0 first.
func (o ReadOptions) Read(data []byte) (*Contract, error) {
	return o.ReadContext(context.Background(), data)
}

// ReadContext reads a document as Read does, and gives up with ctx's
// error once ctx is done: the reading of a large document takes seconds,
// and a signal should end it.
func (o ReadOptions) ReadContext(ctx context.Context, data []byte) (*Contract, error) {
	l, err := o.load(ctx, data)
	if err != nil {
		return nil, err
	}
	c, err := newContract(ctx, l.doc, l.text, readPropertyOrder(l.outline, l.doc))
	if err != nil {
		return nil, err
	}
	c.Warnings, c.Strict, c.ConvertedFrom = l.warnings, o.Strict, l.convertedFrom
	if l.convertedFrom != "" {
		c.Notes = append([]string{"the document is " + l.convertedFrom + ": it was converted to OpenAPI 3.0 on load"}, c.Notes...)
	}
	return c, nil
}

// ReadFile reads the contract of the document at path, as Read does.
func (o ReadOptions) ReadFile(path string) (*Contract, error) {
	return o.ReadFileContext(context.Background(), path)
}

// ReadFileContext reads the contract of the document at path, as
// ReadContext does.
func (o ReadOptions) ReadFileContext(ctx context.Context, path string) (*Contract, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := o.ReadContext(ctx, data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// loaded is a document as load leaves it: parsed, converted, validated,
// and rid of what the lenient reading drops.
type loaded struct {
	doc *openapi3.T
	text
	root          *yaml.Node // source, parsed; nil once written as JSON
	outline       *outline   // of root
	warnings      []string
	convertedFrom string
	// pathOrder are the paths of the document, in the order written.
	pathOrder []string
}

// place names a place of the loaded document as the document names it:
// see swaggerPlace.
func (l *loaded) place(where string) string {
	if l.convertedFrom == "" {
		return where
	}
	return swaggerPlace(where)
}

// largeDocument is the size of a document, in bytes, from which reading
// it collects its garbage twice on the way (see load), so that the peak
// memory of a start is about what the document holds rather than twice
// it: for 60,000 paths of shared $refs, 30 MB, the heap peaked at 700 MB
// where it peaked at 850. 4 MiB is more than any document of the public
// corpus (Kubernetes', 3.6 MB), and a collection costs a start far less
// than reading such a document does.
const largeDocument = 4 << 20

// load parses, converts and validates a document, until ctx is done.
func (o ReadOptions) load(ctx context.Context, data []byte) (*loaded, error) {
	root, err := parseSource(data)
	if err != nil {
		return nil, syntaxError(data, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	l := &loaded{text: text{source: data}, root: root}
	if paths := member(root, "paths"); paths != nil && paths.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(paths.Content); i += 2 {
			l.pathOrder = append(l.pathOrder, paths.Content[i].Value)
		}
	}
	switch {
	case member(root, "swagger") != nil:
		if l.source, err = fromSwagger2(root); err != nil {
			return nil, err
		}
		if l.root, err = parseSource(l.source); err != nil {
			return nil, fmt.Errorf("swagger: the converted document does not parse: %v", err)
		}
		l.convertedFrom = "Swagger 2.0"
	case member(root, "openapi") == nil:
		return nil, errors.New(`openapi: missing; petmock reads OpenAPI 3 documents (openapi: 3.0.3), and Swagger 2.0 ones (swagger: "2.0")`)
	}
	slips := repairTree(l.root)
	switch {
	case o.Strict && len(slips.texts) > 0:
		return nil, fmt.Errorf("%s; write it as text, quoted", l.place(slips.texts[0].String()))
	case o.Strict && len(slips.refs) > 0:
		return nil, fmt.Errorf("%s; refer to a schema, under components.schemas", l.place(slips.refs[0].where+": $ref "+slips.refs[0].ref+" refers to no schema"))
	}
	for _, s := range slips.texts {
		l.warnings = append(l.warnings, l.place(s.String()))
	}
	for _, s := range slips.refs {
		l.warnings = append(l.warnings, l.place(s.String()))
	}
	// kin-openapi reads the JSON of the tree parsed above: see nodeJSON.
	txt, shape, err := documentJSON(l.source, l.root)
	if deep := (*tooDeep)(nil); errors.As(err, &deep) {
		return nil, fmt.Errorf("the document is nested too deeply to read: %v; the work of reading a document grows with the depth of every value", err)
	}
	if err != nil {
		return nil, fmt.Errorf("the document does not parse as %s: %v", language(l.source), err)
	}
	// The tree is let go before kin-openapi reads the document: the two
	// together are most of the memory a reading takes.
	l.text, l.outline, l.root = txt, shape, nil
	if len(data) >= largeDocument {
		// The tree of a large document is most of the heap by now: a
		// collection here gives it back before kin-openapi's reading
		// grows the heap by as much again, which the collector would
		// otherwise let grow to twice the tree.
		runtime.GC()
	}
	if l.doc, err = decode(ctx, l.text); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("the document does not load: %s", firstLine(err.Error()))
	}
	loader := openapi3.NewLoader()
	if err := loader.ResolveRefsIn(l.doc, nil); err != nil {
		return nil, fmt.Errorf("the document does not load: %s", firstLine(err.Error()))
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	restore, err := o.repair(l)
	if err != nil {
		return nil, err
	}
	err = o.validate(ctx, l)
	restore()
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := o.checkValues(ctx, l); err != nil {
		return nil, err
	}
	if len(data) >= largeDocument {
		// And the garbage of kin-openapi's reading and of the checks,
		// before a server is made from the document: the heap then
		// grows from what the document holds, not from twice as much.
		runtime.GC()
	}
	return l, nil
}

// validate validates the document, all but its examples and defaults,
// which checkValues checks. A missing title or version is a warning, or a
// refusal when strict; anything else is a refusal, of the first fault
// found.
func (o ReadOptions) validate(ctx context.Context, l *loaded) error {
	doc := l.doc
	if doc.Info == nil {
		doc.Info = &openapi3.Info{}
	}
	err := doc.Validate(ctx, openapi3.EnableMultiError(), openapi3.DisableExamplesValidation(), openapi3.DisableSchemaDefaultsValidation())
	if err == nil {
		return nil
	}
	errs, ok := err.(openapi3.MultiError)
	if !ok {
		errs = openapi3.MultiError{err}
	}
	for _, e := range errs {
		var title *openapi3.InfoTitleRequired
		var version *openapi3.InfoVersionRequired
		switch {
		case errors.As(e, &title):
			if o.Strict {
				return errors.New("info.title: missing or empty; give the API a title")
			}
			l.warnings = append(l.warnings, "info.title: missing or empty; the API has no title")
		case errors.As(e, &version):
			if o.Strict {
				return errors.New("info.version: missing or empty; give the document a version, such as 1.0.0")
			}
			l.warnings = append(l.warnings, "info.version: missing or empty; the document has no version")
		default:
			err := validationError(e)
			if l.convertedFrom != "" {
				// A Swagger 2.0 document's places, as it names them.
				where, msg, _ := strings.Cut(err.Error(), ": ")
				err = fmt.Errorf("%s: %s", l.place(where), msg)
			}
			return err
		}
	}
	return nil
}

// validationError is a fault kin-openapi found, in one line: the place in
// the document, as far as its error says, and the first line of what is
// wrong, without the schema and value it may dump after it.
func validationError(err error) error {
	var places []string
	leaf := err
chain:
	for e := err; e != nil; e = errors.Unwrap(e) {
		leaf = e
		switch c := e.(type) {
		case *openapi3.SectionValidationError:
			places = append(places, c.Section)
		case *openapi3.PathValidationError:
			places = append(places, c.Path)
		case *openapi3.OperationValidationError:
			places = append(places, strings.ToLower(c.Method))
		case *openapi3.ComponentValidationError:
			places = append(places, componentSection(c.Section), c.Name)
		case *openapi3.WebhookValidationError:
			places = append(places, c.Name)
		case *openapi3.ParameterFieldValidationError:
			places = append(places, "parameters", c.ParameterName, c.Field)
		case *openapi3.PathParametersError:
			return fmt.Errorf("paths.%s.%s: the parameters of the path and those declared differ, missing %s; declare each {name} of the path as a parameter in: path",
				c.Path, strings.ToLower(c.Method), strings.Join(c.Missing, ", "))
		default:
			break chain
		}
	}
	msg := firstLine(leaf.Error())
	if len(places) == 0 {
		return fmt.Errorf("the document is not valid OpenAPI: %s", msg)
	}
	return fmt.Errorf("%s: %s", strings.Join(places, "."), msg)
}

// componentSection returns the key of a section of components, such as
// "schemas", from the name kin-openapi's errors give it, such as "schema".
func componentSection(name string) string {
	switch name {
	case "request body":
		return "requestBodies"
	case "security scheme":
		return "securitySchemes"
	}
	return name + "s"
}

// firstLine returns the first line of a message.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimSpace(s)
}
