// Package tokens makes lock tokens; it uses no Redis client itself.
package tokens

import (
	crand "crypto/rand"
	"encoding/hex"
	"math/rand"
)

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

func RandString(n int) string { // want RandString:`weak value: result 0 is math/rand output`
	s := ""
	for i := 0; i < n; i++ {
		s += string(alphabet[rand.Intn(len(alphabet))])
	}
	return s
}

// FromSource draws 60 bits at a time from the Rand its caller gives it:
// how that Rand was seeded is the caller's business, so no fact.
func FromSource(rng *rand.Rand, n int) string {
	b := make([]byte, n+10)
	for i := 0; i < n; i += 10 {
		bits := rng.Uint64()
		for j := 0; j < 10; j++ {
			b[i+j] = alphabet[bits&0x0F]
			bits >>= 6
		}
	}
	return string(b[:n])
}

func Secure() (string, error) {
	b := make([]byte, 16)
	if _, err := crand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}
