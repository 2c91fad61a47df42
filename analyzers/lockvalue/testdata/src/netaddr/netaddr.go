// Package netaddr finds this host's addresses (it has no Redis of its
// own; its callers use them as lock values).
package netaddr

import (
	"errors"
	"net"
)

// Local returns the first non-loopback IPv4 address, with a bare return
// of the zero value when the interfaces cannot be read.
func Local() (ip string, err error) {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			return n.IP.String(), nil
		}
	}
	return "", errors.New("no address")
}

// Tagged returns the address with a suffix the caller chose: the named
// result is assigned, so a bare return gives what the body made.
func Tagged(tag string) (s string, err error) {
	ip, err := Local()
	if err != nil {
		return
	}
	s = ip + "-" + tag
	return
}
