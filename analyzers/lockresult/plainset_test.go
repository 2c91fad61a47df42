package lockresult

import "testing"

func TestNamedAsAcquire(t *testing.T) {
	for name, want := range map[string]bool{
		"Acquire": true, "TryLock": true, "AcquireOrderLock": true, "GetLock": true, "try_lock": true, "TTLLock": true, "Obtain": true,
		"Unlock": false, "ReleaseLock": false, "IsLocked": false, "Block": false, "SetClock": false, "LockedAt": false, "Save": false,
	} {
		if got := namedAsAcquire(name); got != want {
			t.Errorf("namedAsAcquire(%q) = %v, want %v", name, got, want)
		}
	}
}
