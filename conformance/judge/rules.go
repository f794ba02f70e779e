package judge

import "strconv"

// Rule is one rule the suite checks. Its ID appears in every failure
// message, so a red run names the rule that was broken and a test can look
// for it; its Text says what it asks.
type Rule struct {
	ID   string // such as "auth.required"
	Text string // what the rule asks, as a failure shows it
}

// Rules of the interface, checked by default. Their texts name no value
// of the document: a failure's detail gives the values it was judged by.
var (
	RuleTransport      = Rule{"transport", "every request gets a complete HTTP answer within the timeout, with a body of at most " + strconv.Itoa(MaxBodyBytes>>20) + " MiB and " + strconv.Itoa(MaxBodyValues) + " JSON values"}
	RuleRedirect       = Rule{"redirect", "no answer is a redirect: the interface documents none, so the suite follows none, and sends the API key to the base URL's host only"}
	RuleContract       = Rule{"contract.response", "every answer is one the document describes for the operation: a documented status, Content-Type application/json and a body that matches the schema"}
	RuleErrorShape     = Rule{"errors.shape", "every error is the body its document describes for its status; where that body has them, its code and message are non-empty strings and its status equals the HTTP status (interface §7)"}
	RuleAuth           = Rule{"auth.required", "a request without a valid bearer key gets 401 with an Error body (interface §5)"}
	RuleUniqueIDs      = Rule{"list.unique-ids", "the ids in a list are unique (interface §2: id is a unique identifier)"}
	RuleLimitDefault   = Rule{"limit.default", "without limit, listPets returns at most the default number of pets, and exactly that many when more exist (interface §4.1, §8)"}
	RuleLimit          = Rule{"limit.honoured", "listPets returns at most limit pets, and exactly limit when that many exist (interface §4.1, §8)"}
	RuleLimitBad       = Rule{"limit.invalid", "a limit out of range or not an integer is never answered with a 5xx, nor with more pets than the maximum limit (interface §4.1, §8)"}
	RuleStatus         = Rule{"status.filter", "listPets with a status returns only pets of that status (interface §4.1)"}
	RuleStatusFound    = Rule{"status.found", "listPets with a status returns pets of that status when some exist (interface §4.1)"}
	RuleStatusBad      = Rule{"status.unknown", "a status outside PetStatus never returns pets of another status (interface §4.1)"}
	RuleCreate         = Rule{"create.echo", "createPet answers 201 with the created Pet: an integer id and the name, categoryId and status that were sent (interface §4.2)"}
	RuleNewID          = Rule{"create.unique-id", "createPet gives each pet it creates an id no other pet has (interface §2, §4.2)"}
	RuleCreateBad      = Rule{"create.invalid-body", "createPet answers 400 with an Error body when the body misses a required field or holds an invalid value (interface §4.2, §7)"}
	RuleCreateLocation = Rule{"create.location", "a Location on a 201 of createPet, where there is one, is the URL of the pet created (interface §4.2)"}
	RuleReadBack       = Rule{"create.read-back", "a created pet can then be read through getPet, unchanged (interface §4.2, §4.3)"}
	RuleListed         = Rule{"create.listed", "a created pet appears in listPets filtered by its status (interface §4.1, §4.2)"}
	RuleGet            = Rule{"get.pet", "getPet answers 200 with the pet of that id (interface §4.3)"}
	RuleNotFound       = Rule{"get.not-found", "getPet answers 404 with an Error body for an id that no pet has (interface §4.3, §7)"}
	RuleSunset         = Rule{"deprecation.sunset", "a Sunset header on a getPet answer is an HTTP-date on the removal day (RFC 8594; interface §4.3, §9)"}
	RuleDeprecation    = Rule{"deprecation.deprecation", "a Deprecation header on a getPet answer is an RFC 9745 date, @<unix seconds>, no later than the Sunset, and not in the future: getPet is deprecated already (interface §4.3, §9)"}
)

// Rules that petmock's gap decisions add, checked in a strict run only.
var (
	RuleStrictLimit       = Rule{"strict.limit", "petmock: a limit out of range or not an integer gets 400 with an Error body, never a clamped page"}
	RuleStrictStatus      = Rule{"strict.status", "petmock: a status outside PetStatus (case counts, empty included) gets 400 with an Error body"}
	RuleStrictDeprecation = Rule{"strict.deprecation", "petmock: every getPet answer carries Deprecation (the document's x-petmock-deprecated-at), Sunset (the exact x-sunset) and a Link with rel=\"successor-version\""}
	RuleStrictPagination  = Rule{"strict.pagination", "petmock: while more pets follow, a page carries Link: <URL>; rel=\"next\" on the same origin; walking the links visits every pet once, ordered by id"}
	RuleStrictDefault     = Rule{"strict.default-status", "petmock: a pet created without a status gets the status of the document's x-petmock-defaults"}
	RuleStrictCode        = Rule{"strict.error-code", "petmock: Error.code is one of the document's x-petmock-codes"}
	RuleStrictChallenge   = Rule{"strict.challenge", "petmock: a 401 carries WWW-Authenticate with the Bearer scheme (RFC 6750)"}
	RuleStrictLocation    = Rule{"strict.location", "petmock: a 201 of createPet carries Location, the URL of the created pet"}
	RuleStrictCategory    = Rule{"strict.category", "petmock: createPet accepts any int64 categoryId"}
	RuleStrictInvalid     = Rule{"strict.invalid-request", "petmock: a request that breaks the schema gets the 4xx petmock's choices document, not a success"}
)

// Rules of every operation and resource of the document, checked from
// what the document says of it alone (the checks labelled generic).
var (
	RuleOpExists      = Rule{"operation.exists", "every operation the document describes is served: a valid request to it is not answered 404 or 405"}
	RuleOpSuccess     = Rule{"operation.success", "a valid request, made from the operation's parameters and body schema, gets a documented 2xx whose body matches the schema"}
	RuleOpAuth        = Rule{"operation.auth", "an operation that requires a key refuses a request without one, with a wrong one, and with one near the run's key (in another case, with a character more or less, empty, or in a place the document does not give) with the refusal it documents, 401 or 403, or HTTP's 401 where it documents neither, and an Error body (interface §5)"}
	RuleOpOptionalKey = Rule{"operation.optional-key", "an operation whose security has an empty alternative, so that the key is optional, answers a valid request without one"}
	RuleOpInvalid     = Rule{"operation.invalid-request", "a request that breaks the schema (a required property left out, a wrong type, a value outside an enumeration or past a bound) gets a documented 4xx with an Error body"}
	RuleListLimit     = Rule{"list.limit", "a list returns at most its limit, the one asked for or the default the document gives, and exactly as many items when that many exist; a page a next link leads to holds no more than the page before it could"}
	RuleListFilter    = Rule{"list.filter", "a list filtered by a property returns only items whose property has the value asked for, and some when the unfiltered list shows one"}
	RulePagesRepeat   = Rule{"pagination.repeat", "walking a list's next links shows each item once"}
	RulePagesComplete = Rule{"pagination.complete", "walking a list's next links to its end shows every item it holds: those listed before and after the walk, and those the run created"}
	RulePagesLoop     = Rule{"pagination.loop", "a next link never leads back to a page the walk has visited"}
	RulePagesEnd      = Rule{"pagination.end", "the last page links to no next page: a page shorter than its limit does not link on to a page that holds nothing"}
	RuleItemCreate    = Rule{"resource.create", "a resource's create operation answers a valid item with a documented 2xx and the item created: an id, and every property sent"}
	RuleItemRead      = Rule{"resource.read-back", "an item created reads back with every property that was sent"}
	RuleItemListed    = Rule{"resource.listed", "an item created is listed, unchanged"}
	RuleItemReplace   = Rule{"resource.replace", "an item replaced reads back with every property that was sent, and without the optional ones that were not, as they were: a replace is no merge"}
	RuleItemUpdate    = Rule{"resource.update", "an item updated reads back with the change, and unchanged elsewhere"}
	RuleItemDelete    = Rule{"resource.delete", "an item deleted then reads 404, and is listed no more"}
	RuleItemNotFound  = Rule{"resource.not-found", "a read of an id no item has answers 404, where its document documents 404"}
	RuleItemKept      = Rule{"resource.kept", "an item the run created, and left alone, reads the same at the run's end"}
	RuleItemLocation  = Rule{"resource.location", "a Location on the answer that creates an item, where there is one, is the URL of that item"}
	RuleItemSame      = Rule{"resource.consistent", "an item reads the same through its resource's list, filtered or not, as through its read"}
	RuleOpDeprecation = Rule{"operation.deprecation", "a Deprecation header on an answer of an operation the document says is deprecated, where there is one, dates the deprecation no later than the answer: the operation is deprecated already"}
)
