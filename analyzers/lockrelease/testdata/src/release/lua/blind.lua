-- deletes whatever is there
return redis.call("UNLINK", KEYS[1])
