package spec

import (
	"strings"
	"unicode"

	"github.com/getkin/kin-openapi/openapi3"
)

// The id of an item goes by many names in real documents: the path
// parameter's own (username of {username}), id, the parameter's name
// written otherwise (pet_id of {petId}), the last word of the parameter
// (key of {projectKey}, gid of {project_gid}, slug of {repo_slug}), ID as
// a document in PascalCase writes it (Postmark's), the
// resource's one written with Id (bookingId of /bookings), and the names
// APIs give ids without saying (_id, uuid, key, slug, gid, uid). The
// first rule that names a property of the item, integer or string, wins.

// idNames are the names of properties that hold ids by custom, tried
// after every name the path parameter or the resource gives.
var idNames = []string{"_id", "uuid", "key", "slug", "gid", "uid"}

// idProperty chooses the id property of an item among props, for the
// item path parameter idParam, of the schema param, of a resource named
// after the collection name: see above. Else, as a resource whose
// parameter names nothing, it is the first integer or string the create
// body leaves out (sent holds what it sends) that the parameter can hold:
// no integer where it takes strings of a pattern, as HERE's reports are
// read by a reportId of REP- and a UUID, and their count is no id.
func idProperty(props []Property, idParam, name string, sent map[string]bool, param *openapi3.Schema) (Property, bool) {
	if p, ok := namedID(props, idParam, name); ok {
		return p, true
	}
	patterned := param != nil && schemaType(param) == "string" && (param.Pattern != "" || param.Format == "uuid")
	for _, p := range props {
		t := schemaType(p.Schema)
		if (t == "integer" || t == "string") && !sent[p.Name] && !timestamp(p) && len(EnumOf(p.Schema)) == 0 && !(patterned && t == "integer") {
			return p, true
		}
	}
	return Property{}, false
}

// timestamp reports whether p holds a time, by its format or its name,
// which tells when an item was made, not which it is: Apideck's shared
// links hold no id, and a created_at the create leaves out; VTEX's
// reservations an AuthorizedDateUtc of any text. (Nor is a value of an
// enum an id, which names one of a few kinds: Ijenko's functionalities
// hold a class the create leaves out.)
func timestamp(p Property) bool {
	if f := ofAllOf(p.Schema, func(s *openapi3.Schema) string { return s.Format }); f == "date-time" || f == "date" || f == "time" {
		return true
	}
	name := looseName(p.Name)
	for _, end := range []string{"date", "dateutc", "time", "timestamp"} {
		if strings.HasSuffix(name, end) {
			return true
		}
	}
	return strings.HasSuffix(p.Name, "_at") || len(p.Name) > 2 && strings.HasSuffix(p.Name, "At") && unicode.IsLower(rune(p.Name[len(p.Name)-3]))
}

// namedID returns the property of props that holds the id by its name,
// as idProperty chooses it before it takes the first the create leaves
// out; false when none is named so.
func namedID(props []Property, idParam, name string) (Property, bool) {
	var candidates []Property
	for _, p := range props {
		if t := schemaType(p.Schema); t == "integer" || t == "string" {
			candidates = append(candidates, p)
		}
	}
	last := lastWord(idParam)
	one := looseName(Singular(name))
	rules := []func(string) bool{
		func(n string) bool { return n == idParam },
		// A key of {projectKey} names the item where id is another
		// property: the path reads the item by its key.
		func(n string) bool { return last != "id" && last != "" && looseName(n) == last },
		func(n string) bool { return n == "id" },
		// Postmark's ID, as a document in PascalCase writes it.
		func(n string) bool { return looseName(n) == "id" },
		func(n string) bool { return looseName(n) == looseName(idParam) },
		func(n string) bool { return one != "" && (looseName(n) == one+"id" || looseName(n) == one+"key") },
	}
	for _, want := range idNames {
		rules = append(rules, func(n string) bool { return n == want })
	}
	for _, want := range rules {
		for _, p := range candidates {
			if want(p.Name) {
				return p, true
			}
		}
	}
	return Property{}, false
}

// lastWord returns the last word of a name written in camelCase,
// snake_case or kebab-case, lower case: "key" of projectKey, "gid" of
// project_gid, "id" of petID; "" for a name of one word.
func lastWord(name string) string {
	runes := []rune(name)
	for i := len(runes) - 1; i > 0; i-- {
		switch r := runes[i]; {
		case r == '_' || r == '-':
			return strings.ToLower(string(runes[i+1:]))
		case unicode.IsUpper(r) && unicode.IsLower(runes[i-1]):
			return strings.ToLower(string(runes[i:]))
		}
	}
	return ""
}

// looseName is a name without case, underscores, hyphens or the sigils
// $ and @, so that petId, pet_id and PetID are one, and Appwrite's $id
// and JSON-LD's @id are id.
func looseName(name string) string {
	return strings.ToLower(strings.NewReplacer("_", "", "-", "", "$", "", "@", "").Replace(name))
}
