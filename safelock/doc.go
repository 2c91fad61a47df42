// Package safelock is a Redis lock with fencing tokens, owner-checked
// release and renew, and a lease that knows when it is lost.
package safelock
