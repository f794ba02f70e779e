package store

// The benchmarks are in package store_test, so that they can store the
// catalogue petmock generates; they add and select pets as these tests do.
var (
	AddPet     = addPet
	StatusPage = statusPage
)
