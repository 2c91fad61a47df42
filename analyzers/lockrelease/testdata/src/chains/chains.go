// Package chains holds releases reached through long chains of helpers,
// and helpers that call each other in a cycle (a worker that enqueues
// again): a report lands on the DEL a reviewer would change, never on
// another command of the chain.
package chains

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

type Jobs struct{ rdb *redis.Client }

// Run takes the lock and releases it thirteen helpers down, where only the
// helpers' facts carry the key. The helpers come after their callers in
// the file, so a fact climbs the chain one function a round when
// functions are summarised in source order: more rounds than summarise
// allows.
func (j *Jobs) Run(ctx context.Context, id int64) {
	key := fmt.Sprintf("job:lock:%d", id)
	ok, err := j.rdb.SetNX(ctx, key, "1", time.Minute).Result()
	if err != nil || !ok {
		return
	}
	j.step1(ctx, key)
}

func (j *Jobs) step1(ctx context.Context, key string)  { j.step2(ctx, key) }
func (j *Jobs) step2(ctx context.Context, key string)  { j.step3(ctx, key) }
func (j *Jobs) step3(ctx context.Context, key string)  { j.step4(ctx, key) }
func (j *Jobs) step4(ctx context.Context, key string)  { j.step5(ctx, key) }
func (j *Jobs) step5(ctx context.Context, key string)  { j.step6(ctx, key) }
func (j *Jobs) step6(ctx context.Context, key string)  { j.step7(ctx, key) }
func (j *Jobs) step7(ctx context.Context, key string)  { j.step8(ctx, key) }
func (j *Jobs) step8(ctx context.Context, key string)  { j.step9(ctx, key) }
func (j *Jobs) step9(ctx context.Context, key string)  { j.step10(ctx, key) }
func (j *Jobs) step10(ctx context.Context, key string) { j.step11(ctx, key) }
func (j *Jobs) step11(ctx context.Context, key string) { j.step12(ctx, key) }
func (j *Jobs) step12(ctx context.Context, key string) { j.finish(ctx, key) }

func (j *Jobs) finish(ctx context.Context, key string) {
	j.rdb.Expire(ctx, key+":stats", time.Hour)
	j.rdb.Set(ctx, key+":last", time.Now().Unix(), 0)
	j.rdb.Del(ctx, key) // want `lock key is deleted with DEL without checking`
}

// A queue whose worker enqueues again: enqueue starts the workers, the
// worker handles a task, and a failed task is enqueued again. The dedup
// record is not a lock, and the chunk lock's release is reported once, at
// its DEL.
type Queue struct{ rdb *redis.Client }

type task struct{ File, Chunk int64 }

func dedupKey(t task) string { return fmt.Sprintf("emb:dedup:%d:%d", t.File, t.Chunk) }
func chunkKey(t task) string { return fmt.Sprintf("emb:lock:%d:%d", t.File, t.Chunk) }

// triggerPostProcessingTasks names its own work: "Processing" in it says
// nothing about the record it reaches.
func (q *Queue) triggerPostProcessingTasks(ctx context.Context, ts []task) {
	for _, t := range ts {
		q.enqueue(ctx, t)
	}
}

func (q *Queue) enqueue(ctx context.Context, t task) {
	ok, err := q.rdb.SetNX(ctx, dedupKey(t), time.Now().UnixMilli(), 2*time.Hour).Result()
	if err != nil || !ok {
		return
	}
	if err := q.rdb.RPush(ctx, "emb:queue", fmt.Sprint(t.File, t.Chunk)).Err(); err != nil {
		q.rdb.Del(ctx, dedupKey(t))
		return
	}
	q.startWorkers(ctx)
}

func (q *Queue) startWorkers(ctx context.Context) {
	for range 4 {
		go q.consume(ctx)
	}
}

func (q *Queue) consume(ctx context.Context) {
	for ctx.Err() == nil {
		var t task
		if _, err := fmt.Sscan(q.rdb.BRPop(ctx, time.Second, "emb:queue").Val()[1], &t.File, &t.Chunk); err != nil {
			continue
		}
		q.handle(ctx, t)
	}
}

func (q *Queue) handle(ctx context.Context, t task) {
	ok, err := q.rdb.SetNX(ctx, chunkKey(t), NewToken(), 5*time.Minute).Result()
	if err != nil || !ok {
		return
	}
	defer q.rdb.Del(ctx, chunkKey(t)) // want `lock chunkKey\(t\) is deleted with DEL without checking`
	q.rdb.Expire(ctx, "emb:stats", time.Hour)
	if t.Chunk < 0 {
		q.rdb.Del(ctx, dedupKey(t))
		q.enqueue(ctx, task{File: t.File, Chunk: -t.Chunk}) // enqueue again
		return
	}
	q.rdb.Del(ctx, dedupKey(t))
}

func NewToken() string { return fmt.Sprint(time.Now().UnixNano()) }
