// Package mongorepo writes jobs to MongoDB, for callers in other
// packages; it imports no other store.
package mongorepo

import (
	"context"

	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/mongo"
)

type Jobs struct{ c *mongo.Collection }

func (j *Jobs) MarkDone(ctx context.Context, id string) error {
	_, err := j.c.UpdateOne(ctx, bson.M{"_id": id}, bson.M{"$set": bson.M{"done": true}})
	return err
}

func (j *Jobs) Done(ctx context.Context, id string) (bool, error) {
	var job struct{ Done bool }
	err := j.c.FindOne(ctx, bson.M{"_id": id}).Decode(&job)
	return job.Done, err
}
