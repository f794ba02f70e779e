package spec

import "github.com/getkin/kin-openapi/openapi3"

// SchemaOptions are the options to check a value against a schema of doc
// with, by openapi3filter or VisitJSON. An OpenAPI 3.0 document is checked
// by kin-openapi's own validator, without the dump of the schema its
// messages would carry. An OpenAPI 3.1 document is checked by its JSON
// Schema 2020-12 validator, which refuses every value when asked to leave
// out details (its messages carry none), so it is not asked.
func SchemaOptions(doc *openapi3.T) []openapi3.SchemaValidationOption {
	if doc.IsOpenAPI31OrLater() {
		return []openapi3.SchemaValidationOption{openapi3.EnableJSONSchema2020()}
	}
	return []openapi3.SchemaValidationOption{openapi3.DisableSchemaErrorDetails()}
}
