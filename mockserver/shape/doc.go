// Package shape writes the values of a document's schemas as JSON, the one
// way petmock answers with them: an object's members in the order the
// document gives them, integers in plain digits, strings escaped as
// encoding/json escapes them without HTML escaping. Every value has one
// text, so an answer matches the contract byte for byte, and what a client
// created comes back as it would from any other read.
//
// A Shape also gives the one key of a value in a filter's index
// (FilterKey), and finds the integers of a decoded value that are not
// exactly of their format's size (ExactIntegers), which a schema check
// that reads numbers as float64s lets through.
package shape
