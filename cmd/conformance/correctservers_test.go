package main

// Correct servers that read a document one way where another is also
// right: the suite passes each, where it once failed them.

import (
	"strconv"
	"strings"
	"testing"

	ct "github.com/petstore/contract/conformance/conformancetest"
	"github.com/petstore/contract/spec"
)

// writtenDocument writes doc into a file of the test's own, and returns
// its path and its contract.
func writtenDocument(t *testing.T, doc string) (string, *spec.Contract) {
	t.Helper()
	path := ct.WriteDocument(t, doc)
	c, err := spec.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, c
}

// judgePetmockOf runs the suite against petmock serving doc, judged by it.
func judgePetmockOf(t *testing.T, doc string) result {
	t.Helper()
	path, c := writtenDocument(t, doc)
	return judge(t, servedAt(t, ct.PetmockOf(t, path), c.Base), "--spec", path)
}

// narrowFilter is a document whose jobs have a status of three values,
// and whose list filters by a status of two of them, as Twitter's
// compliance jobs are expired and listed by created, in_progress, failed
// or complete; a job is created expired.
const narrowFilter = `openapi: 3.0.3
info: {title: Jobs, version: 1.0.0}
paths:
  /jobs:
    get:
      parameters: [{name: status, in: query, schema: {type: string, enum: [active, done]}}]
      responses:
        '200': {description: The jobs., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Job'}}}}}
        '400': {description: A bad filter.}
    post:
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name, status], properties: {name: {type: string}, status: {type: string, enum: [expired]}}}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Job'}}}}
  /jobs/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: The job., content: {application/json: {schema: {$ref: '#/components/schemas/Job'}}}}
        '404': {description: No such job.}
components:
  schemas:
    Job:
      type: object
      required: [id, name, status]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
        status: {type: string, enum: [active, done, expired]}
`

// TestItemsListedWithoutAFilterThatRefusesThem: an item created is looked
// for in the list filtered by its own values, but by none the filter's
// parameter refuses: an expired job is looked for in the whole list, where
// a status=expired was answered 400 and the suite failed a correct server.
func TestItemsListedWithoutAFilterThatRefusesThem(t *testing.T) {
	t.Parallel()
	r := judgePetmockOf(t, narrowFilter)
	if r.code != 0 || strings.Contains(r.stdout, "status=expired") {
		t.Errorf("petmock of jobs listed by a narrower status: exit %d, want 0, and no status=expired asked\n%s", r.code, r)
	}
}

// keptOnReplace is a document whose lists are replaced by a body of
// optional members only, and read with the name they require, as
// Twitter's are.
const keptOnReplace = `openapi: 3.0.3
info: {title: Lists, version: 1.0.0}
paths:
  /lists:
    get:
      responses:
        '200': {description: The lists., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/List'}}}}}
    post:
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}, description: {type: string}}}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/List'}}}}
  /lists/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: The list., content: {application/json: {schema: {$ref: '#/components/schemas/List'}}}}
        '404': {description: No such list.}
    put:
      requestBody: {required: true, content: {application/json: {schema: {type: object, properties: {name: {type: string}, description: {type: string}}}}}}
      responses:
        '200': {description: Replaced., content: {application/json: {schema: {$ref: '#/components/schemas/List'}}}}
        '404': {description: No such list.}
components:
  schemas:
    List:
      type: object
      required: [id, name]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
        description: {type: string}
`

// TestReplaceKeepsWhatTheItemRequires: a replace whose body leaves out a
// name the item's schema requires may keep the name, as it must answer
// one: the suite holds the replace to no merge of what the item may go
// without, and passes petmock, which keeps it.
func TestReplaceKeepsWhatTheItemRequires(t *testing.T) {
	t.Parallel()
	r := judgePetmockOf(t, keptOnReplace)
	if r.code != 0 {
		t.Errorf("petmock of lists that keep their name on a replace: exit %d, want 0\n%s", r.code, r)
	}
}

// contentParameters is a document whose path parameters are sent as JSON
// content rather than by a schema, as Stream's are: the id of a thing, a
// string, is written "abc", quoted, in the path, and a kind of an
// enumeration likewise.
const contentParameters = `openapi: 3.0.3
info: {title: Things, version: 1.0.0}
paths:
  /things:
    get:
      responses:
        '200': {description: The things., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Thing'}}}}}
    post:
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}}}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
  /things/{id}:
    parameters: [{name: id, in: path, required: true, content: {application/json: {schema: {type: string}}}}]
    get:
      responses:
        '200': {description: The thing., content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
        '404': {description: No such thing.}
    delete:
      responses:
        '204': {description: Deleted.}
        '404': {description: No such thing.}
  /kinds/{kind}:
    get:
      parameters: [{name: kind, in: path, required: true, content: {application/json: {schema: {type: string, enum: [apn, firebase]}}}}]
      responses:
        '200': {description: The kind., content: {application/json: {schema: {type: object, properties: {kind: {type: string}}}}}}
components:
  schemas:
    Thing:
      type: object
      required: [id, name]
      properties:
        id: {type: string, readOnly: true}
        name: {type: string}
`

// TestContentPathParameters: path parameters sent as JSON content are
// written by the suite as their JSON, ids and made values alike, and read
// by petmock so: petmock serving them passes.
func TestContentPathParameters(t *testing.T) {
	t.Parallel()
	r := judgePetmockOf(t, contentParameters)
	if r.code != 0 {
		t.Errorf("petmock of path parameters of JSON content: exit %d, want 0\n%s", r.code, r)
	}
}

// scopedJobs is a document whose jobs are listed by a type the list
// requires, and created with one, as Twitter's compliance jobs are.
const scopedJobs = `openapi: 3.0.3
info: {title: Jobs, version: 1.0.0}
paths:
  /jobs:
    get:
      parameters: [{name: type, in: query, required: true, schema: {type: string, enum: [tweets, users]}}]
      responses:
        '200': {description: The jobs of the type., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Job'}}}}}
    post:
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [type], properties: {type: {type: string, enum: [tweets, users]}, name: {type: string}}}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Job'}}}}
  /jobs/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: The job., content: {application/json: {schema: {$ref: '#/components/schemas/Job'}}}}
        '404': {description: No such job.}
components:
  schemas:
    Job:
      type: object
      required: [id, type]
      properties:
        id: {type: integer, readOnly: true}
        type: {type: string, enum: [tweets, users]}
        name: {type: string}
`

// TestItemsCreatedInTheListsScope: the items a run creates carry the
// value of the query parameter its list requires, made before the list is
// first asked for where a create comes first, so that a walk of the list
// sees them, whatever the seed.
func TestItemsCreatedInTheListsScope(t *testing.T) {
	t.Parallel()
	path, c := writtenDocument(t, scopedJobs)
	url := servedAt(t, ct.PetmockOf(t, path), c.Base)
	for seed := 1; seed <= 8; seed++ {
		if r := judge(t, url, "--spec", path, "--seed", strconv.Itoa(seed)); r.code != 0 {
			t.Errorf("seed %d: exit %d, want 0\n%s", seed, r.code, r)
		}
	}
}

// correctReadings are documents a correct server, petmock, serves in a
// way the document allows and the suite once failed: it passes each.
var correctReadings = []struct{ name, doc string }{
	{"FilterOfAnotherSpelling", spelledFilter},
	{"ReadWithoutWhatOnlyTheCreateAnswers", onceSecret},
	{"DeleteOfABody", deletedWithABody},
	{"UpdateOfWhatTheItemDeclares", undeclaredChange},
	{"ReadOfLessThanTheList", listedWithMore},
	{"ReplaceAnsweringAString", replacedAnsweringItsID},
	{"LocationOfAnItemReplacedByBody", replacedByBody},
	{"ListAndReadOfAnotherSuccess", listedWith201},
	{"ReadOfNoBody", readOfNoBody},
	{"PagesOfAKeyInTheQuery", keyInTheQuery},
	{"NullOfAnAnswerOfNone", nullOfNone},
	{"ReplaceOfOneOfAnAnyOf", replaceOfAnyOf},
	{"ReferencesSentInTheirType", referencesOfAnotherType},
	{"IDsOfAnotherTypeInTheRead", idsOfAnotherType},
	{"UpdateAnsweringAnOperation", updatedAnsweringAnOperation},
	{"CreateAnsweringAnOutcomeOfTheSameName", outcomeOfTheSameName},
	{"PathParameterOfContentOfAnyMedia", contentOfAnyMedia},
	{"IDSentThatTheCreateDoesNotDeclare", undeclaredIDSent},
}

func TestCorrectReadingsPass(t *testing.T) {
	for _, tt := range correctReadings {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if r := judgePetmockOf(t, tt.doc); r.code != 0 {
				t.Errorf("petmock of %s: exit %d, want 0\n%s", tt.name, r.code, r)
			}
		})
	}
}

// spelledFilter is a document whose projects are archived or not, and
// listed by an archived of "1" or "0", as Vercel's projects are by a
// boolean gitForkProtection, and shared or not, listed by a shared of the
// integers 0 or 1, as Apacta's invoices are by is_offer.
//
// A filter whose values spell the property's another way, as "1" of true,
// is read as the server likes: petmock lists the archived projects for
// "1", where the suite asked for an archived of the text "1" and failed
// it.
const spelledFilter = `openapi: 3.0.3
info: {title: Projects, version: 1.0.0}
paths:
  /projects:
    get:
      parameters:
        - {name: archived, in: query, schema: {type: string, enum: ["1", "0"]}}
        - {name: shared, in: query, schema: {type: integer, enum: [0, 1]}}
      responses:
        '200': {description: The projects., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Project'}}}}}
    post:
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}, archived: {type: boolean}, shared: {type: boolean}}}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Project'}}}}
  /projects/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: The project., content: {application/json: {schema: {$ref: '#/components/schemas/Project'}}}}
        '404': {description: No such project.}
components:
  schemas:
    Project:
      type: object
      required: [id, name, archived]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
        archived: {type: boolean}
        shared: {type: boolean}
`

// onceSecret is a document whose credentials are answered with their key
// when created, and read without it, as Adyen's API credentials are.
//
// An item is read back with what of its create's answer its read's schema
// holds: a credential's key, shown once, is not expected of its read.
const onceSecret = `openapi: 3.0.3
info: {title: Credentials, version: 1.0.0}
paths:
  /credentials:
    post:
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}}}}}}
      responses:
        '201':
          description: Created, with the key shown once.
          content:
            application/json:
              schema:
                type: object
                required: [id, name, apiKey]
                properties: {id: {type: integer}, name: {type: string}, apiKey: {type: string}}
  /credentials/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: The credential., content: {application/json: {schema: {$ref: '#/components/schemas/Credential'}}}}
        '404': {description: No such credential.}
    patch:
      requestBody: {required: true, content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}}
      responses:
        '200': {description: Updated., content: {application/json: {schema: {$ref: '#/components/schemas/Credential'}}}}
        '404': {description: No such credential.}
components:
  schemas:
    Credential:
      type: object
      required: [id, name]
      properties:
        id: {type: integer}
        name: {type: string}
`

// deletedWithABody is a document whose users are deleted with a body that
// names who takes over, and a required reason, as VictorOps' are.
//
// A delete that requires a body and a query parameter is sent with both,
// where the suite sent neither and failed petmock's 400.
const deletedWithABody = `openapi: 3.0.3
info: {title: Users, version: 1.0.0}
paths:
  /users:
    post:
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}}}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/User'}}}}
  /users/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: The user., content: {application/json: {schema: {$ref: '#/components/schemas/User'}}}}
        '404': {description: No such user.}
    delete:
      parameters: [{name: reason, in: query, required: true, schema: {type: string}}]
      requestBody: {required: true, content: {application/json: {schema: {type: object, properties: {replacement: {type: string}}}}}}
      responses:
        '200': {description: Deleted.}
        '404': {description: No such user.}
components:
  schemas:
    User:
      type: object
      required: [id, name]
      properties:
        id: {type: integer}
        name: {type: string}
`

// undeclaredChange is a document whose notes are updated with read
// permissions their schema does not declare, as Appwrite's documents are.
//
// An update changes a property the item's schema declares, and a member
// sent that the item's schema does not declare is not held to what it was:
// the suite changed a note's read permissions, expected them as created,
// and failed petmock, which answers them as changed.
const undeclaredChange = `openapi: 3.0.3
info: {title: Notes, version: 1.0.0}
paths:
  /notes:
    post:
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [title], properties: {read: {type: array, items: {type: string}}, title: {type: string}}}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
  /notes/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: The note., content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
        '404': {description: No such note.}
    patch:
      requestBody: {required: true, content: {application/json: {schema: {type: object, properties: {read: {type: array, items: {type: string}}, title: {type: string}}}}}}
      responses:
        '200': {description: Updated., content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
        '404': {description: No such note.}
components:
  schemas:
    Note:
      type: object
      additionalProperties: true
      required: [id, title]
      properties:
        id: {type: integer}
        title: {type: string}
`

// listedWithMore is a document whose accounts are listed with a document
// number their read does not declare, as VTEX's credit accounts are.
//
// An item listed reads the same through its read for what the read's
// schema declares: an account listed with its document number reads
// without it.
const listedWithMore = `openapi: 3.0.3
info: {title: Accounts, version: 1.0.0}
paths:
  /accounts:
    get:
      responses:
        '200':
          description: The accounts.
          content:
            application/json:
              schema:
                type: array
                items:
                  type: object
                  required: [id, email, document]
                  properties: {id: {type: integer}, email: {type: string}, document: {type: string}}
    post:
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [email], properties: {email: {type: string}, document: {type: string}}}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Account'}}}}
  /accounts/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: The account., content: {application/json: {schema: {$ref: '#/components/schemas/Account'}}}}
        '404': {description: No such account.}
components:
  schemas:
    Account:
      type: object
      required: [id, email]
      properties:
        id: {type: integer}
        email: {type: string}
`

// replacedAnsweringItsID is a document whose accounts are replaced with an
// answer of the string of their id, as VTEX's credit accounts are.
//
// A replace that answers a string, not the item, is judged by the item's
// read, where the suite read the string as an item and failed a correct
// server.
const replacedAnsweringItsID = `openapi: 3.0.3
info: {title: Accounts, version: 1.0.0}
paths:
  /accounts:
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Account'}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Account'}}}}
  /accounts/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: The account., content: {application/json: {schema: {$ref: '#/components/schemas/Account'}}}}
        '404': {description: No such account.}
    put:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Account'}}}}
      responses:
        '200': {description: The account's id., content: {application/json: {schema: {type: string}}}}
        '404': {description: No such account.}
components:
  schemas:
    Account:
      type: object
      required: [email]
      properties:
        id: {type: integer, readOnly: true}
        email: {type: string}
`

// updatedAnsweringAnOperation is a document whose types are updated by a
// PATCH that answers an Operation to watch, as Google's Deployment
// Manager's are: an object whose id, name and description are the
// operation's, beside more of its own.
//
// An answer whose schema declares more of another object than of the
// item is no item: the update is judged by the read, where the suite held
// the operation's name to the item's and failed it.
const updatedAnsweringAnOperation = `openapi: 3.0.3
info: {title: Types, version: 1.0.0}
paths:
  /types:
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Type'}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Type'}}}}
  /types/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: The type., content: {application/json: {schema: {$ref: '#/components/schemas/Type'}}}}
        '404': {description: No such type.}
    patch:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Type'}}}}
      responses:
        '200': {description: The operation of the update., content: {application/json: {schema: {$ref: '#/components/schemas/Operation'}}}}
        '404': {description: No such type.}
components:
  schemas:
    Type:
      type: object
      required: [name]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
        description: {type: string}
    Operation:
      type: object
      properties:
        id: {type: string}
        name: {type: string}
        description: {type: string}
        progress: {type: integer}
        status: {type: string, enum: [PENDING, RUNNING, DONE]}
        targetLink: {type: string}
        startTime: {type: string}
`

// outcomeOfTheSameName is a document whose issues are created with a
// transition to make, and answered with a transition of another schema,
// its outcome, as Jira's are, which takes no other member.
//
// A member sent of which the answer declares nothing is not expected
// back: the suite expected the transition as an empty object.
const outcomeOfTheSameName = `openapi: 3.0.3
info: {title: Issues, version: 1.0.0}
paths:
  /issues:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [summary, transition]
              properties:
                summary: {type: string}
                transition: {type: object, required: [id], properties: {id: {type: string}, looped: {type: boolean}}}
      responses:
        '201':
          description: Created.
          content:
            application/json:
              schema:
                type: object
                properties:
                  id: {type: string}
                  transition: {type: object, additionalProperties: false, properties: {status: {type: integer}, errors: {type: object}}}
  /issues/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: string}}]
    get:
      responses:
        '200': {description: The issue., content: {application/json: {schema: {$ref: '#/components/schemas/Issue'}}}}
        '404': {description: No such issue.}
components:
  schemas:
    Issue:
      type: object
      properties:
        id: {type: string, readOnly: true}
        summary: {type: string}
`

// contentOfAnyMedia is a document whose reports are read by an id of
// content */* rather than a schema, a UUID, as Telnyx's are.
//
// Such an id is its text: petmock read the UUID 088b7872-... as the JSON
// number 0 it begins with, and answered every read 404.
const contentOfAnyMedia = `openapi: 3.0.3
info: {title: Reports, version: 1.0.0}
paths:
  /reports:
    get:
      responses:
        '200': {description: The reports., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Report'}}}}}
    post:
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}}}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Report'}}}}
  /reports/{id}:
    parameters: [{name: id, in: path, required: true, content: {'*/*': {schema: {type: string, format: uuid}}}}]
    get:
      responses:
        '200': {description: The report., content: {application/json: {schema: {$ref: '#/components/schemas/Report'}}}}
        '404': {description: No such report.}
components:
  schemas:
    Report:
      type: object
      required: [id, name]
      properties:
        id: {type: string, format: uuid, readOnly: true}
        name: {type: string}
`

// undeclaredIDSent is a document whose campaigns are created by a body
// that declares no id and whose example holds one, as SendGrid's are.
//
// The id sent is the server's to ignore: the campaign answered holds the
// id the server gives it, where the suite expected the example's back.
const undeclaredIDSent = `openapi: 3.0.3
info: {title: Campaigns, version: 1.0.0}
paths:
  /campaigns:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/NewCampaign'}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Campaign'}}}}
  /campaigns/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: The campaign., content: {application/json: {schema: {$ref: '#/components/schemas/Campaign'}}}}
        '404': {description: No such campaign.}
components:
  schemas:
    NewCampaign:
      type: object
      required: [title]
      properties:
        title: {type: string}
      example: {id: 986724, title: May}
    Campaign:
      allOf:
        - {$ref: '#/components/schemas/NewCampaign'}
        - {type: object, properties: {id: {type: integer}, status: {type: string}}}
`

// replacedByBody is a document whose environments are replaced by a PUT of
// the collection whose body names the environment, and deleted at their
// item path, which has no GET, as AppVeyor's are.
//
// The Location of an item created is judged against its item path, not
// against the path of a replace that names the item by its body.
const replacedByBody = `openapi: 3.0.3
info: {title: Environments, version: 1.0.0}
paths:
  /environments:
    get:
      responses:
        '200': {description: The environments., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Environment'}}}}}
    post:
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}}}}}}
      responses:
        '200': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Environment'}}}}
    put:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Environment'}}}}
      responses:
        '200': {description: Replaced., content: {application/json: {schema: {$ref: '#/components/schemas/Environment'}}}}
  /environments/{environmentId}:
    parameters: [{name: environmentId, in: path, required: true, schema: {type: integer}}]
    delete:
      responses:
        '204': {description: Deleted.}
components:
  schemas:
    Environment:
      type: object
      required: [environmentId, name]
      properties:
        environmentId: {type: integer}
        name: {type: string}
`

// listedWith201 is a document whose feeds are listed and read with a 201,
// the one success it documents, as Xero's feed connections are.
//
// A list and a read are judged by the success their operations document,
// where the suite asked for a 200 and failed a correct server's 201.
const listedWith201 = `openapi: 3.0.3
info: {title: Feeds, version: 1.0.0}
paths:
  /feeds:
    get:
      responses:
        '201': {description: The feeds., content: {application/json: {schema: {type: object, properties: {items: {type: array, items: {$ref: '#/components/schemas/Feed'}}}}}}}
    post:
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}}}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Feed'}}}}
  /feeds/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '201': {description: The feed., content: {application/json: {schema: {$ref: '#/components/schemas/Feed'}}}}
        '404': {description: No such feed.}
components:
  schemas:
    Feed:
      type: object
      required: [id, name]
      properties:
        id: {type: integer}
        name: {type: string}
`

// readOfNoBody is a document whose deployments are listed, and read with a
// 200 of no body, as ClearBlade's are.
//
// A read that documents no body is not read for the item: the suite read
// petmock's empty 200 as a body that does not decode.
const readOfNoBody = `openapi: 3.0.3
info: {title: Deployments, version: 1.0.0}
paths:
  /deployments:
    get:
      responses:
        '200': {description: The deployments., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Deployment'}}}}}
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Deployment'}}}}
      responses:
        '200': {description: Created.}
  /deployments/{name}:
    parameters: [{name: name, in: path, required: true, schema: {type: string}}]
    get:
      responses:
        '200': {description: Read.}
    put:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Deployment'}}}}
      responses:
        '200': {description: Replaced.}
components:
  schemas:
    Deployment:
      type: object
      required: [name]
      properties:
        name: {type: string}
        description: {type: string}
`

// keyInTheQuery is a document whose key goes in the query, as HubSpot's
// hapikey, and whose actions are listed in pages of a limit.
//
// The key goes with a next link, which need not carry it: the suite
// followed petmock's links without it, and failed the 401 it got.
const keyInTheQuery = `openapi: 3.0.3
info: {title: Actions, version: 1.0.0}
security: [{hapikey: []}]
paths:
  /actions:
    get:
      parameters: [{name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 100}}]
      responses:
        '200': {description: The actions., content: {application/json: {schema: {type: object, properties: {results: {type: array, items: {$ref: '#/components/schemas/Action'}}}}}}}
    post:
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}}}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Action'}}}}
  /actions/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: The action., content: {application/json: {schema: {$ref: '#/components/schemas/Action'}}}}
        '404': {description: No such action.}
components:
  securitySchemes:
    hapikey: {type: apiKey, in: query, name: hapikey}
  schemas:
    Action:
      type: object
      required: [id, name]
      properties:
        id: {type: integer}
        name: {type: string}
`

// nullOfNone is a document whose categories are created with a code of
// null, and answered with one of a string, as VTEX's categories are with
// their AdWordsRemarketingCode.
//
// A value sent that the answer's schema refuses, null among them, is not
// expected back.
const nullOfNone = `openapi: 3.0.3
info: {title: Categories, version: 1.0.0}
paths:
  /categories:
    post:
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name, code], properties: {name: {type: string}, code: {type: string, nullable: true, enum: [null]}}}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Category'}}}}
  /categories/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: The category., content: {application/json: {schema: {$ref: '#/components/schemas/Category'}}}}
        '404': {description: No such category.}
components:
  schemas:
    Category:
      type: object
      required: [id, name]
      properties:
        id: {type: integer}
        name: {type: string}
        code: {type: string}
`

// replaceOfAnyOf is a document whose places are replaced by a body of
// optional properties, one of which an anyOf asks for, as HERE's
// locations are.
//
// A replace that leaves out the optional properties keeps one the body's
// schema needs all the same: the suite sent {}, which the anyOf refuses,
// and failed petmock's 400.
const replaceOfAnyOf = `openapi: 3.0.3
info: {title: Places, version: 1.0.0}
paths:
  /places:
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewPlace'}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Place'}}}}
  /places/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: The place., content: {application/json: {schema: {$ref: '#/components/schemas/Place'}}}}
        '404': {description: No such place.}
    put:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewPlace'}}}}
      responses:
        '200': {description: Replaced., content: {application/json: {schema: {$ref: '#/components/schemas/Place'}}}}
        '404': {description: No such place.}
components:
  schemas:
    NewPlace:
      type: object
      properties:
        name: {type: string}
        address: {type: string}
      anyOf:
        - {required: [name]}
        - {required: [address]}
    Place:
      type: object
      required: [id]
      properties:
        id: {type: integer}
        name: {type: string}
        address: {type: string}
`

// referencesOfAnotherType is a document whose services are created with
// a groupId of a string, and answered and listed with one of an integer,
// as onsched's are with their serviceGroupId.
//
// A value of an item as answered is sent as the create takes it: the
// groupId most items listed have, and that of the walk of the list
// filtered by it, went as integers, which petmock refused.
const referencesOfAnotherType = `openapi: 3.0.3
info: {title: Services, version: 1.0.0}
paths:
  /services:
    get:
      parameters:
        - {name: groupId, in: query, schema: {type: integer}}
        - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 100}}
      responses:
        '200': {description: The services., content: {application/json: {schema: {type: object, properties: {data: {type: array, items: {$ref: '#/components/schemas/Service'}}}}}}}
    post:
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}, groupId: {type: string, nullable: true}}}}}}
      responses:
        '200': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Service'}}}}
  /services/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: The service., content: {application/json: {schema: {$ref: '#/components/schemas/Service'}}}}
        '404': {description: No such service.}
components:
  schemas:
    Service:
      type: object
      required: [id, name]
      properties:
        id: {type: integer}
        name: {type: string}
        groupId: {type: integer, nullable: true}
`

// idsOfAnotherType is a document whose strategies are created with a
// strategyid of an integer, and read with one of a string, as
// Tradematic's are.
//
// An item is read back with its id as the read writes it: the suite
// wanted the integer 51 where the read answered "51".
const idsOfAnotherType = `openapi: 3.0.3
info: {title: Strategies, version: 1.0.0}
paths:
  /strategies:
    post:
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}}}}}}
      responses:
        '200': {description: Created., content: {application/json: {schema: {type: object, required: [strategyid, name], properties: {strategyid: {type: integer}, name: {type: string}}}}}}
  /strategies/{strategyid}:
    parameters: [{name: strategyid, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: The strategy., content: {application/json: {schema: {$ref: '#/components/schemas/Strategy'}}}}
        '404': {description: No such strategy.}
components:
  schemas:
    Strategy:
      type: object
      required: [strategyid, name]
      properties:
        strategyid: {type: string}
        name: {type: string}
`
