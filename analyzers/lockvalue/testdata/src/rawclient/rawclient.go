// Package rawclient is a client library over redigo whose Do forwards the
// command name and arguments as they are (github.com/sk-pkg/redis's
// Manager.Do).
package rawclient

import "github.com/gomodule/redigo/redis"

type Manager struct{ Pool *redis.Pool }

func (m *Manager) Do(commandName string, args ...interface{}) (interface{}, error) {
	conn := m.Pool.Get()
	defer conn.Close()
	return conn.Do(commandName, args...)
}

// Record has the same shape but sends nothing to Redis.
func (m *Manager) Record(commandName string, args ...interface{}) (interface{}, error) {
	return nil, nil
}

func (m *Manager) Del(key string) (bool, error) {
	conn := m.Pool.Get()
	defer conn.Close()
	return redis.Bool(conn.Do("DEL", "app:"+key))
}
