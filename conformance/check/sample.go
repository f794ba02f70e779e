package check

// MaxSampledValues is the most values of one enumeration that the checks
// take one each of, such as a check of the status filter for each
// PetStatus. A document may list thousands: the checks then take this
// many, spread over the list, and the coverage summary says so.
const MaxSampledValues = 8

// sampleOf returns values, or MaxSampledValues of them, spread evenly over
// the list, the first and the last among them, in the list's order.
func sampleOf(values []string) []string {
	if len(values) <= MaxSampledValues {
		return values
	}
	out := make([]string, MaxSampledValues)
	for i := range out {
		out[i] = values[i*(len(values)-1)/(MaxSampledValues-1)]
	}
	return out
}
