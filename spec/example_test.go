package spec_test

import (
	"fmt"
	"net/http/httptest"

	"github.com/petstore/contract/spec"
)

// The contract of a document is read once; here, the operations and the
// resources of the evolved document of testdata, which adds store orders
// and a report to the Petstore's.
func ExampleReadFile() {
	c, err := spec.ReadFile("../testdata/evolved-ops.yaml")
	if err != nil {
		panic(err)
	}
	for _, r := range c.Resources {
		var roles []string
		for _, op := range r.Operations() {
			roles = append(roles, op.Role.String()+" "+op.ID)
		}
		fmt.Println(r.Name, r.CollectionPath, r.IDProperty, roles)
	}
	fmt.Println(c.Operation("getInventory").Role, c.Operation("getPet").Deprecation.Sunset.Format("2006-01-02"))
	// Output:
	// pets /pets id [list listPets create createPet read getPet]
	// orders /store/orders id [list listOrders create placeOrder read getOrder replace replaceOrder update updateOrder delete cancelOrder]
	// other 2030-12-05
}

// The operation a route of the router found is the contract's, found by
// its method and path template rather than by an id computed again.
func ExampleContract_RouteOperation() {
	c, err := spec.Default()
	if err != nil {
		panic(err)
	}
	router, err := spec.NewRouter(c.Doc)
	if err != nil {
		panic(err)
	}
	route, params, err := router.FindRoute(httptest.NewRequest("GET", "http://petmock.example/v1/pets/12", nil))
	if err != nil {
		panic(err)
	}
	op := c.RouteOperation(route)
	fmt.Println(op.ID, op.Template, params["petId"], op.Template.Expand(map[string]string{"petId": "7"}))
	// Output:
	// getPet /pets/{petId} 12 /pets/7
}
