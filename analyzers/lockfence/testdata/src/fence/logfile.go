package fence

import (
	"context"
	"os"
	"time"
)

// fileLogger is a project's own logger: it appends to a log file opened
// once, at startup.
type fileLogger struct{ out *os.File }

func newFileLogger(path string) (*fileLogger, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	return &fileLogger{out: f}, nil
}

func (l *fileLogger) Info(msg string) { l.out.WriteString(msg + "\n") }

var auditLog = os.Stderr

// Near miss: a log line is not the resource the lock protects. Handles
// kept in a struct field or a package variable (the logger's file,
// os.Stdout) are streams the process appends to.
func logUnderLock(ctx context.Context, l *fileLogger, id, token string) {
	ok, err := rdb.SetNX(ctx, "lock:log:"+id, token, 10*time.Second).Result()
	if err != nil || !ok {
		return
	}
	defer rdb.Del(ctx, "lock:log:"+id)
	l.Info("working on " + id)
	auditLog.WriteString("done " + id + "\n")
	os.Stdout.Write([]byte(id))
}

// A file the section opens and writes is what it produces: a stale
// holder's late write lands over the next holder's export.
func exportUnderLock(ctx context.Context, id, token string) error {
	ok, err := rdb.SetNX(ctx, "lock:export:"+id, token, 10*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, "lock:export:"+id)
	f, err := os.OpenFile("/srv/export/"+id+".csv", os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteString("id,total\n") // want `\(\*os.File\).WriteString under lock "lock:export:" \+ id \(SET NX\) carries no fencing token`
	return err
}

// So is a file it opens and hands to a helper of the package (reported
// in the helper, as other writes there are).
func exportThroughHelper(ctx context.Context, id, token string) error {
	ok, err := rdb.SetNX(ctx, "lock:export2:"+id, token, 10*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, "lock:export2:"+id)
	f, err := os.OpenFile("/srv/export/"+id+".csv", os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	return writeHeader(f)
}

func writeHeader(f *os.File) error {
	_, err := f.WriteString("id,total\n") // want `\(\*os.File\).WriteString under lock "lock:export2:" \+ id \(SET NX\) carries no fencing token`
	return err
}
