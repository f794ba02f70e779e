package spec

import (
	"math"
	"strconv"
	"strings"
)

// ExactInt64 returns the value of a JSON number if it is exactly an integer
// in the int64 range, such as 12, 1.0, 1e2 or 0e999999, and false if it is
// not, such as 1.5, 9223372036854775808 or 9.223372036854776e18 (the
// largest int64 rounded through a float64). Unlike a float64 conversion it
// loses no digit, and unlike big.Rat it cannot be made to compute 10^1e9:
// its cost grows with the length of num only.
//
// The mock and the judge both read integers with it, so that they never
// disagree on which numbers are int64 values.
func ExactInt64(num string) (int64, bool) {
	if v, err := strconv.ParseInt(num, 10, 64); err == nil {
		return v, true
	}
	neg := strings.HasPrefix(num, "-")
	num = strings.TrimPrefix(num, "-")
	mant, exp := num, 0
	if i := strings.IndexAny(num, "eE"); i >= 0 {
		mant = num[:i]
		e, err := strconv.Atoi(num[i+1:])
		if err != nil {
			e = math.MaxInt32 // beyond any int64, with either sign
			if strings.HasPrefix(num[i+1:], "-") {
				e = math.MinInt32
			}
		}
		exp = max(min(e, math.MaxInt32), math.MinInt32)
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	if intPart+frac == "" || !digitsOnly(intPart) || !digitsOnly(frac) {
		return 0, false
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	point := len(intPart) + exp - (len(intPart+frac) - len(digits)) // digits before the point
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		return 0, true
	}
	if point < len(digits) || point > 19 {
		return 0, false // a fraction, or more than 19 digits
	}
	v, err := strconv.ParseUint(digits+strings.Repeat("0", point-len(digits)), 10, 64)
	if err != nil {
		return 0, false
	}
	if neg {
		switch {
		case v > 1<<63:
			return 0, false
		case v == 1<<63:
			return math.MinInt64, true
		}
		return -int64(v), true
	}
	if v > math.MaxInt64 {
		return 0, false
	}
	return int64(v), true
}

func digitsOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
