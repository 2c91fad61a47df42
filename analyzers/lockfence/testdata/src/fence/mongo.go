package fence

import (
	"context"
	"time"

	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/mongo"
	"gopkg.in/mgo.v2"
	mgobson "gopkg.in/mgo.v2/bson"
)

// MongoDB writes under a lock: the same stale-holder problem as SQL.
func payOrderMongo(ctx context.Context, orders *mongo.Collection, id, token string) error {
	key := "lock:order:" + id
	if ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result(); err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	var o struct{ State string }
	if err := orders.FindOne(ctx, bson.M{"_id": id}).Decode(&o); err != nil { // a read: no write to fence
		return err
	}
	_, err := orders.UpdateOne(ctx, bson.M{"_id": id}, bson.M{"$set": bson.M{"state": "paid"}}) // want `mongo Collection.UpdateOne under lock key \(SET NX\) carries no fencing token`
	return err
}

// The lease's fence in the filter: the collection refuses a stale holder.
func payOrderMongoFenced(ctx context.Context, orders *mongo.Collection, id string) error {
	lease, err := locker.TryAcquire(ctx, "order:"+id, 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	filter := bson.M{"_id": id, "fence": bson.M{"$lt": lease.Fence()}}
	_, err = orders.UpdateOne(ctx, filter, bson.M{"$set": bson.M{"state": "paid", "fence": lease.Fence()}})
	return err
}

// mgo: find-then-insert under the lock, and findAndModify through a
// chained Find.
func registerNode(s *mgo.Session, key, token string) error {
	ctx := context.Background()
	if !rdb.SetNX(ctx, "lock:node:"+key, token, 30*time.Second).Val() {
		return nil
	}
	defer rdb.Del(ctx, "lock:node:"+key)
	c := s.DB("crawlab").C("nodes")
	var n struct{ Key string }
	if err := c.Find(mgobson.M{"key": key}).One(&n); err == mgo.ErrNotFound {
		return c.Insert(mgobson.M{"key": key}) // want `mongo Collection.Insert under lock "lock:node:" \+ key \(SET NX\) carries no fencing token`
	}
	return nil
}

func touchNode(s *mgo.Session, key, token string) error {
	ctx := context.Background()
	if !rdb.SetNX(ctx, "lock:node:"+key, token, 30*time.Second).Val() {
		return nil
	}
	defer rdb.Del(ctx, "lock:node:"+key)
	var n struct{ Key string }
	_, err := s.DB("crawlab").C("nodes").Find(mgobson.M{"key": key}).Apply(mgo.Change{Update: mgobson.M{"$set": mgobson.M{"seen": time.Now()}}}, &n) // want `mongo Query.Apply under lock`
	return err
}
