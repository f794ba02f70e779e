package answercheck

// Violation is one rule of the document an answer breaks.
type Violation struct {
	// Rule names the rule broken: one of the Rule constants.
	Rule string `json:"rule"`
	// Message says what was wrong, naming the operation and the field at
	// fault, such as "listPets answered 200: response body doesn't match
	// schema; 0.name: property \"name\" is missing".
	Message string `json:"message"`
}

// Rules an answer may break.
const (
	// RuleStatus: the status is one the operation documents, or it has a
	// default response.
	RuleStatus = "response.status"
	// RuleHeader: every header the response documents as required is
	// there, and every header it documents matches its schema.
	RuleHeader = "response.header"
	// RuleMediaType: the Content-Type is one the response documents.
	RuleMediaType = "response.content-type"
	// RuleBody: the body is valid JSON, where it is served as JSON, and
	// matches the schema of its media type.
	RuleBody = "response.body"
	// RuleErrorShape: an answer of status 400 or above says what the
	// Petstore's interface says an error says, where the body its
	// document describes for it has the members: its string code and
	// message are not empty, and its integer status is the HTTP status.
	RuleErrorShape = "errors.shape"
	// RuleUncheckable: the schema of the body is one the validator
	// cannot compile, such as a 3.1 schema's $dynamicRef, so that what
	// the body holds is not judged; the answer breaks nothing the
	// validator can tell.
	RuleUncheckable = "response.uncheckable"
)
