package conformancetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Widgets is a small document that has none of the Petstore's operations:
// widgets are listed, a page at a time, filtered by colour, made and
// read, with the key in a header of their own. The judge holds a server of
// it to the generic rules alone.
const Widgets = `openapi: 3.0.3
info: {title: Widgets, version: 1.0.0}
servers: [{url: /api}]
security: [{widgetKey: []}]
paths:
  /widgets:
    get:
      operationId: listWidgets
      parameters:
        - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 50, default: 10}}
        - {name: color, in: query, schema: {$ref: '#/components/schemas/Color'}}
      responses:
        '200':
          description: A page of widgets.
          headers: {Link: {schema: {type: string}}}
          content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Widget'}}}}
        '400': {$ref: '#/components/responses/Error'}
        '401': {$ref: '#/components/responses/Error'}
    post:
      operationId: makeWidget
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewWidget'}}}}
      responses:
        '201': {description: The widget made., content: {application/json: {schema: {$ref: '#/components/schemas/Widget'}}}}
        '400': {$ref: '#/components/responses/Error'}
        '401': {$ref: '#/components/responses/Error'}
  /widgets/{widgetId}:
    parameters: [{name: widgetId, in: path, required: true, schema: {type: integer, format: int64}}]
    get:
      operationId: getWidget
      responses:
        '200': {description: The widget., content: {application/json: {schema: {$ref: '#/components/schemas/Widget'}}}}
        '401': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
components:
  securitySchemes:
    widgetKey: {type: apiKey, in: header, name: X-Widget-Key}
  responses:
    Error: {description: An error., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
  schemas:
    Color: {type: string, enum: [red, green, blue]}
    NewWidget:
      type: object
      required: [name]
      properties:
        name: {type: string}
        color: {$ref: '#/components/schemas/Color'}
    Widget:
      allOf:
        - $ref: '#/components/schemas/NewWidget'
        - {type: object, required: [id], properties: {id: {type: integer, format: int64}}}
    Error:
      type: object
      required: [code, message, status]
      properties: {code: {type: string}, message: {type: string}, status: {type: integer}}
`

// NumberedWidgets is Widgets whose errors are numbered, as many APIs'
// are: an Error of an integer code and a message, without the Petstore's
// string code and status. The judge holds a server of it to that body.
var NumberedWidgets = strings.Replace(Widgets, `    Error:
      type: object
      required: [code, message, status]
      properties: {code: {type: string}, message: {type: string}, status: {type: integer}}
`, `    Error:
      type: object
      required: [code, message]
      properties: {code: {type: integer, minimum: 100, maximum: 599}, message: {type: string}}
`, 1)

// WriteDocument writes doc into a file of the test's own and returns its
// path.
func WriteDocument(tb testing.TB, doc string) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "openapi.yaml")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// Notes is a document that, as many do, leaves out the statuses HTTP
// requires: no 401 though every operation takes a key, no 400 (addNote
// documents a 422 instead, listNotes nothing for a bad limit), no 404 of
// a note; and sendNotes documents no success, only "405: Invalid input",
// as Swagger Petstore's addPet does. It describes no error body.
const Notes = `openapi: 3.0.3
info: {title: Notes, version: 1.0.0}
servers: [{url: /n}]
security: [{noteKey: []}]
paths:
  /notes:
    get:
      operationId: listNotes
      parameters: [{name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 50}}]
      responses:
        '200': {description: The notes., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Note'}}}}}
    post:
      operationId: addNote
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewNote'}}}}
      responses:
        '201': {description: The note added., content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
        '422': {description: Invalid note.}
  /notes/{noteId}:
    parameters: [{name: noteId, in: path, required: true, schema: {type: integer, format: int64}}]
    get:
      operationId: getNote
      responses:
        '200': {description: The note., content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
    delete:
      operationId: deleteNote
      responses:
        '204': {description: Deleted.}
  /outbox:
    post:
      operationId: sendNotes
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewNote'}}}}
      responses:
        '405': {description: Invalid input.}
components:
  securitySchemes:
    noteKey: {type: apiKey, in: header, name: X-Note-Key}
  schemas:
    NewNote:
      type: object
      required: [text]
      properties: {text: {type: string, maxLength: 200}}
    Note:
      allOf:
        - $ref: '#/components/schemas/NewNote'
        - {type: object, required: [id], properties: {id: {type: integer, format: int64}}}
`

// Vaults is a document of a resource nested below another: the items of
// a vault, created, listed, read, replaced and deleted below it, with
// string ids, the vault's id among their properties, and a list paged by
// a limit; and an operation on one item at a path of its own, that names
// no vault.
const Vaults = `openapi: 3.0.3
info: {title: Vaults, version: 1.0.0}
servers: [{url: /vs}]
paths:
  /vaults:
    get:
      operationId: listVaults
      responses:
        '200': {description: The vaults., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Vault'}}}}}
    post:
      operationId: createVault
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewVault'}}}}
      responses:
        '201': {description: The vault., content: {application/json: {schema: {$ref: '#/components/schemas/Vault'}}}}
  /vaults/{vaultId}:
    parameters: [{name: vaultId, in: path, required: true, schema: {type: string}}]
    get:
      operationId: getVault
      responses:
        '200': {description: The vault., content: {application/json: {schema: {$ref: '#/components/schemas/Vault'}}}}
        '404': {description: No such vault.}
  /vaults/{vaultId}/items:
    parameters: [{name: vaultId, in: path, required: true, schema: {type: string}}]
    get:
      operationId: listItems
      parameters: [{name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 50}}]
      responses:
        '200': {description: The items., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Item'}}}}}
    post:
      operationId: createItem
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewItem'}}}}
      responses:
        '201': {description: The item., content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}}
  /vaults/{vaultId}/items/{itemId}:
    parameters:
      - {name: vaultId, in: path, required: true, schema: {type: string}}
      - {name: itemId, in: path, required: true, schema: {type: string}}
    get:
      operationId: getItem
      responses:
        '200': {description: The item., content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}}
        '404': {description: No such item.}
    put:
      operationId: replaceItem
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewItem'}}}}
      responses:
        '200': {description: The item., content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}}
        '404': {description: No such item.}
    delete:
      operationId: deleteItem
      responses:
        '204': {description: Deleted.}
        '404': {description: No such item.}
  /history/{itemId}:
    get:
      operationId: itemHistory
      parameters: [{name: itemId, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {description: What became of the item., content: {application/json: {schema: {type: array, items: {type: string}}}}}
components:
  schemas:
    NewVault:
      type: object
      required: [name]
      properties: {name: {type: string}}
    Vault:
      allOf:
        - $ref: '#/components/schemas/NewVault'
        - {type: object, required: [id], properties: {id: {type: string}}}
    NewItem:
      type: object
      required: [title]
      properties: {title: {type: string}, vaultId: {type: string}, tags: {type: array, items: {type: string}}}
    Item:
      allOf:
        - $ref: '#/components/schemas/NewItem'
        - {type: object, required: [id], properties: {id: {type: string}}}
`
