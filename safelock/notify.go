package safelock

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// maxIdleChannels bounds the channels a notifier stays subscribed to while
// no one waits on them; staying subscribed saves a round trip per wait on a
// busy key.
const maxIdleChannels = 256

// notifier shares one pub/sub connection per deployment among a Locker's
// waiters. The release scripts PUBLISH on a channel named after the key,
// or, for queued waiters, on the notifier's own channel (only its process
// hears a handoff meant for it, and a handoff that reaches nobody tells
// the script that the waiter's process is gone); plain PUBLISH reaches
// subscribers on every node of a cluster, so any node will do. A Redlock
// notifier listens on every deployment: a release reaches them one by
// one, and a waiter woken by the first may find the others still held;
// the releases still on their way wake it again. (It also keeps waking
// waiters while one deployment is down.)
type notifier struct {
	clients []redis.UniversalClient
	// ownChannel is this notifier's own channel; exact says whether
	// PUBLISH counts its subscribers exactly (not on a cluster, where it
	// counts only those of the node it ran on).
	ownChannel string
	exact      bool

	mu          sync.Mutex
	subs        []*redis.PubSub // one per client, nil until the first wait
	readersDone []chan struct{}
	closed      bool
	channels    map[string]*channel
	maxIdle     int // maxIdleChannels, but for tests
	seq         uint64

	// gone remembers queued waiters that left, for a while: a handoff can
	// still come for one whose place outlived it (a failover restored an
	// older queue, or its leaveQueue never reached the server). pass hands
	// such a lock on, unless this process holds a lease with that token.
	gone *expiring[goneWaiter]
	pass func(ks *keySet, token string)
	// told holds the handoffs this process told its waiters itself
	// (handOver), until their pub/sub message, which is then not a
	// stray, has come.
	told *expiring[struct{}]

	// beforeSubscribe, when set (by tests), runs before each SUBSCRIBE
	// subscribeAny sends in parallel.
	beforeSubscribe func(client int, name string)
}

type goneWaiter struct{ ks *keySet }

type channel struct {
	waiters   map[*waiter]struct{}
	confirmed chan struct{} // closed when a server confirmed SUBSCRIBE
	since     time.Time     // when the first did
	heard     []bool        // which clients' servers confirmed it
	// subscribing counts the SUBSCRIBEs of it still being sent (Redlock:
	// subscribeAny does not wait for them all). It is not pruned before
	// they end: one sent after its UNSUBSCRIBE would subscribe it again,
	// with nothing left to unsubscribe it.
	subscribing int
}

type waiter struct {
	name  string
	ks    *keySet     // a queued waiter's key, remembered when it leaves
	token string      // a message naming a token wakes only its waiter
	seq   uint64      // order of arrival, for waking the longest waiter first
	wake  chan string // the release message that woke it
	since time.Time   // when the subscription became active (zero: not known to be)
}

func newNotifier(clients []redis.UniversalClient, goneFor time.Duration, pass func(*keySet, string)) *notifier {
	_, plain := clients[0].(*redis.Client)
	return &notifier{clients: clients, channels: make(map[string]*channel), maxIdle: maxIdleChannels, ownChannel: ownChannelPrefix + NewToken(), exact: plain,
		gone: newExpiring[goneWaiter](goneFor), pass: pass, told: newExpiring[struct{}](goneFor)}
}

// own returns the notifier's own channel ("" for a nil notifier).
func (n *notifier) own() string {
	if n == nil {
		return ""
	}
	return n.ownChannel
}

// listen says how the queue scripts reach this notifier's waiters (see
// queueLua): its own channel once the server has confirmed the
// subscription, prefixed by "=" when PUBLISH counts exactly and "?"
// otherwise; "-" before that (the waiters poll).
func (n *notifier) listen() string {
	if n == nil {
		return "-"
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	ch := n.channels[n.ownChannel]
	switch {
	case ch == nil || ch.since.IsZero() || n.closed:
		return "-"
	case n.exact:
		return "=" + n.ownChannel
	}
	return "?" + n.ownChannel
}

// join registers a waiter on a channel the server has already confirmed,
// without a round trip, and returns nil when there is none. A waiter
// joins before its first attempt, so that a release right after that
// attempt finds it listening.
func (n *notifier) join(name, token string, ks *keySet) *waiter {
	if n == nil {
		return nil
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	ch := n.channels[name]
	if n.closed || ch == nil || ch.since.IsZero() {
		return nil
	}
	n.seq++
	w := &waiter{name: name, seq: n.seq, wake: make(chan string, 1), token: token, since: ch.since, ks: ks}
	ch.waiters[w] = struct{}{}
	return w
}

// subscribe registers a waiter on the channel and waits (briefly) until the
// subscription is active. It returns nil when pub/sub is unavailable; the
// caller then polls.
func (n *notifier) subscribe(ctx context.Context, name, token string, ks *keySet) *waiter {
	if n == nil {
		return nil
	}
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return nil
	}
	ch := n.channels[name]
	if ch == nil {
		ch = &channel{waiters: make(map[*waiter]struct{}), confirmed: make(chan struct{}), heard: make([]bool, len(n.clients))}
		if n.subs == nil {
			for i, c := range n.clients {
				ps := c.Subscribe(context.WithoutCancel(ctx)) // connects on first use
				done := make(chan struct{})
				n.subs, n.readersDone = append(n.subs, ps), append(n.readersDone, done)
				go n.read(i, ps, done)
			}
		}
		if !n.subscribeAny(ctx, name, ch) {
			unsubscribeAll(n.subs, []string{name})
			n.mu.Unlock()
			return nil
		}
		n.channels[name] = ch
	}
	n.seq++
	// Releases publish the token of the one waiter they wake (an empty
	// message wakes the longest waiter of each Locker).
	w := &waiter{name: name, seq: n.seq, wake: make(chan string, 1), token: token, ks: ks}
	ch.waiters[w] = struct{}{}
	confirmed := ch.confirmed
	n.mu.Unlock()

	t := time.NewTimer(subscribeWait)
	defer t.Stop()
	select {
	case <-confirmed:
		n.mu.Lock()
		w.since = ch.since
		n.mu.Unlock()
	case <-ctx.Done():
	case <-t.C:
	}
	return w
}

// subscribeAny sends SUBSCRIBE name on every PubSub, in parallel, and
// returns once one was sent (true) or all failed (false); it does not wait
// for a deployment that is down. go-redis remembers a channel even when
// SUBSCRIBE fails and subscribes again once it connects, so one is enough
// for now (the confirmations come through read). When all failed, the
// caller must make go-redis forget the channel (unsubscribeAll): it is
// not among the notifier's channels, so nothing would unsubscribe it
// after go-redis subscribed it again. n.mu is held.
func (n *notifier) subscribeAny(ctx context.Context, name string, ch *channel) bool {
	if len(n.subs) == 1 {
		return n.subs[0].Subscribe(ctx, name) == nil
	}
	answers := make(chan bool, len(n.subs))
	ch.subscribing = len(n.subs)
	for i, ps := range n.subs {
		go func() {
			if n.beforeSubscribe != nil {
				n.beforeSubscribe(i, name)
			}
			answers <- ps.Subscribe(ctx, name) == nil
			n.mu.Lock()
			ch.subscribing--
			n.mu.Unlock()
		}()
	}
	for range n.subs {
		if <-answers {
			return true
		}
	}
	return false
}

// heard reports whether w's subscription was confirmed, so that the
// messages published for it reach it.
func (w *waiter) heard() bool { return w != nil && !w.since.IsZero() }

// unsubscribe removes a waiter. One that leaves without the lock passes a
// wake-up it did not use on to the longest waiter; one that got the lock
// drops it: a Redlock release wakes its waiter once per node, and the
// other waiters could only find the lock held.
func (n *notifier) unsubscribe(w *waiter, acquired bool) {
	if n == nil || w == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	ch := n.channels[w.name]
	if ch == nil {
		return
	}
	delete(ch.waiters, w)
	select {
	case <-w.wake:
		// A wake-up this waiter did not use. (A queued waiter's is its
		// handoff, told twice, or passed on by leaveQueue.)
		if w.ks == nil && !acquired {
			ch.wakeLongest()
		}
	default:
	}
	if w.ks != nil {
		n.gone.put(time.Now(), w.token, goneWaiter{ks: w.ks})
	}
	if len(n.channels) <= n.maxIdle || n.subs == nil {
		return
	}
	var idle []string
	for name, ch := range n.channels {
		if len(ch.waiters) == 0 && ch.subscribing == 0 && name != n.ownChannel {
			delete(n.channels, name)
			idle = append(idle, name)
		}
	}
	unsubscribeAll(n.subs, idle)
}

// unsubscribeAll sends one UNSUBSCRIBE of names per deployment, in
// parallel and bounded, so that one that is down does not hold up the
// notifier (go-redis forgets the channels even when the command fails,
// so it does not subscribe them again on reconnect).
func unsubscribeAll(subs []*redis.PubSub, names []string) {
	if len(names) == 0 {
		return // no names would unsubscribe from every channel
	}
	ctx, cancel := context.WithTimeout(context.Background(), orphanTimeout)
	defer cancel()
	var wg sync.WaitGroup
	for _, ps := range subs {
		wg.Go(func() { _ = ps.Unsubscribe(ctx, names...) })
	}
	wg.Wait()
}

// read delivers messages until the PubSub is closed. go-redis reconnects
// and resubscribes after errors; waiters poll meanwhile.
func (n *notifier) read(client int, ps *redis.PubSub, done chan struct{}) {
	defer close(done)
	for {
		msg, err := ps.Receive(context.Background())
		if err != nil {
			if errors.Is(err, redis.ErrClosed) {
				return
			}
			n.mu.Lock()
			closed := n.closed
			n.mu.Unlock()
			if closed {
				return
			}
			time.Sleep(50 * time.Millisecond) // the server is away; don't spin
			continue
		}
		n.mu.Lock()
		switch m := msg.(type) {
		case *redis.Subscription:
			ch := n.channels[m.Channel]
			switch {
			case ch == nil || m.Kind != "subscribe":
			case !ch.heard[client]:
				ch.heard[client] = true
				if ch.since.IsZero() {
					ch.since = time.Now()
					close(ch.confirmed)
				}
			default:
				// go-redis subscribed again after a reconnect (a failover,
				// a cut): releases and handoffs published meanwhile
				// reached nobody, so every waiter looks again now
				// instead of after its pause.
				for w := range ch.waiters {
					w.tell("")
				}
			}
		case *redis.Message:
			if ch := n.channels[m.Channel]; ch != nil {
				ch.deliver(m.Payload, n.strayHandoff)
			}
		}
		n.mu.Unlock()
	}
}

// deliver wakes the waiter a release message is for. A queued lock's
// release hands the lock to a waiter by "token=fence" (see notice);
// another release names the one waiter it wakes by its token, or is
// empty and wakes the longest waiter here (see wakeLongest).
func (ch *channel) deliver(payload string, stray func(msg, token string)) {
	if payload == "" {
		ch.wakeLongest()
		return
	}
	token, _, handoff := strings.Cut(payload, "=")
	if w := ch.waiterOf(token); w != nil {
		w.tell(payload)
	} else if handoff && stray != nil {
		stray(payload, token)
	}
}

func (ch *channel) waiterOf(token string) *waiter {
	for w := range ch.waiters {
		if w.token == token {
			return w
		}
	}
	return nil
}

// handOver tells a waiter of this notifier that a release by this
// process handed it the lock (msg as the release script returned it: the
// script publishes nothing on this notifier's channel, see here). A
// handoff to a waiter of this notifier that has left is passed on
// (strayHandoff); one to a waiter elsewhere was published, and is left
// to the message.
func (n *notifier) handOver(msg string) {
	if n == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	token, _, _ := strings.Cut(msg, "=")
	ch := n.channels[n.ownChannel]
	if ch == nil {
		return
	}
	if w := ch.waiterOf(token); w != nil {
		w.tell(msg)
		n.told.put(time.Now(), msg, struct{}{})
		return
	}
	n.strayHandoff(msg, token)
}

// here is the channel of this notifier's waiters, once the server has
// confirmed it ("" before): a release by this process hands the lock to
// a waiter on it without PUBLISH, and tells it itself (handOver).
func (n *notifier) here() string {
	if n == nil {
		return ""
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if ch := n.channels[n.ownChannel]; ch == nil || ch.since.IsZero() || n.closed {
		return ""
	}
	return n.ownChannel
}

// strayHandoff is called, under n.mu, for a handoff to a token with no
// waiter here: if a queued waiter with that token left lately, the lock is
// passed on (in the background; pass skips a token this process holds a
// lease with).
func (n *notifier) strayHandoff(msg, token string) {
	now := time.Now()
	n.told.expire(now)
	if _, ok := n.told.take(msg); ok {
		// Told already by handOver: the waiter took the lease.
		return
	}
	n.gone.expire(now)
	g, ok := n.gone.take(token)
	if !ok || n.pass == nil {
		return
	}
	go n.pass(g.ks, token)
}

// wakeLongest wakes the longest waiter that has no wake-up pending. Only
// one waiter per process retries per release; the others keep sleeping,
// so a busy key does not cost one command per waiter per release. A
// waiter that leaves with its wake-up unused passes it on.
func (ch *channel) wakeLongest() {
	var pick *waiter
	for w := range ch.waiters {
		if len(w.wake) == 0 && (pick == nil || w.seq < pick.seq) {
			pick = w
		}
	}
	if pick != nil {
		pick.tell("")
	}
}

// tell hands w a message; a newer one replaces one it has not read yet.
func (w *waiter) tell(msg string) {
	for {
		select {
		case w.wake <- msg:
			return
		default:
		}
		select {
		case <-w.wake:
		default:
		}
	}
}

func (n *notifier) close() error {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return nil
	}
	n.closed = true
	subs, done := n.subs, n.readersDone
	n.subs, n.readersDone = nil, nil
	n.mu.Unlock()
	var errs []error
	for i, ps := range subs {
		errs = append(errs, ps.Close())
		<-done[i]
	}
	return errors.Join(errs...)
}
