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

func Secure() (string, error) {
	b := make([]byte, 16)
	if _, err := crand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}
