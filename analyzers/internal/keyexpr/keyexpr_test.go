package keyexpr

import "testing"

func TestPretty(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`call(fmt.Sprintf,"lock:%s",*)`, `fmt.Sprintf("lock:%s", *)`},
		{`concat("job:",*)`, `"job:" + *`},
		{`field(example.com/app/locks.Mutex.key)`, `Mutex.key`},
		{`var(example.com/app.lockKey)`, `app.lockKey`},
		{`call(example.com/app.lockKey,concat("a,b",*))`, `app.lockKey("a,b" + *)`},
		{`*`, `*`},
		{`concat(result(call(example.com/app.lockKey,*),0),":x")`, `app.lockKey(*) + ":x"`},
	} {
		if got := Pretty(tt.in); got != tt.want {
			t.Errorf("Pretty(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNames(t *testing.T) {
	for s, want := range map[string]bool{"lock:": true, "jobs-%d": true, ":": false, "%s:%s": false, "%d": false, "k1": true, "锁": true} {
		if got := names(s); got != want {
			t.Errorf("names(%q) = %v, want %v", s, got, want)
		}
	}
}
