package spec

import (
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// TestStatusResponseIsKinOpenAPIs holds statusResponse to Responses.Status
// for every status, documented, in a documented range or neither.
func TestStatusResponseIsKinOpenAPIs(t *testing.T) {
	rs := openapi3.NewResponses(
		openapi3.WithStatus(200, &openapi3.ResponseRef{Value: openapi3.NewResponse().WithDescription("ok")}),
		openapi3.WithStatus(404, &openapi3.ResponseRef{Value: openapi3.NewResponse().WithDescription("none")}),
	)
	rs.Set("4XX", &openapi3.ResponseRef{Value: openapi3.NewResponse().WithDescription("client")})
	rs.Set("5XX", &openapi3.ResponseRef{Value: openapi3.NewResponse().WithDescription("server")})
	for status := -1; status < 700; status++ {
		if got, want := statusResponse(rs, status), rs.Status(status); got != want {
			t.Errorf("statusResponse(%d) = %p, Status gives %p", status, got, want)
		}
	}
	if statusResponse(rs, 201) != nil || statusResponse(rs, 418) == nil || statusResponse(rs, 404).Value.Description == nil {
		t.Error("the statuses of the test are not what it means to try")
	}
}
