// Package mongo is a stand-in for go.mongodb.org/mongo-driver/mongo.
package mongo

import "context"

type Collection struct{}

type InsertOneResult struct{ InsertedID interface{} }

type UpdateResult struct{ MatchedCount, ModifiedCount int64 }

type DeleteResult struct{ DeletedCount int64 }

type SingleResult struct{}

func (r *SingleResult) Decode(v interface{}) error { return nil }
func (r *SingleResult) Err() error                 { return nil }

type Cursor struct{}

func (c *Collection) InsertOne(ctx context.Context, document interface{}, opts ...interface{}) (*InsertOneResult, error) {
	return nil, nil
}

func (c *Collection) UpdateOne(ctx context.Context, filter, update interface{}, opts ...interface{}) (*UpdateResult, error) {
	return nil, nil
}

func (c *Collection) ReplaceOne(ctx context.Context, filter, replacement interface{}, opts ...interface{}) (*UpdateResult, error) {
	return nil, nil
}

func (c *Collection) DeleteOne(ctx context.Context, filter interface{}, opts ...interface{}) (*DeleteResult, error) {
	return nil, nil
}

func (c *Collection) FindOne(ctx context.Context, filter interface{}, opts ...interface{}) *SingleResult {
	return &SingleResult{}
}

func (c *Collection) Find(ctx context.Context, filter interface{}, opts ...interface{}) (*Cursor, error) {
	return nil, nil
}

func (c *Collection) FindOneAndUpdate(ctx context.Context, filter, update interface{}, opts ...interface{}) *SingleResult {
	return &SingleResult{}
}
