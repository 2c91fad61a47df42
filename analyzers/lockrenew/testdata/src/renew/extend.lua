-- extend the lock (no owner check)
return redis.call("PEXPIRE", KEYS[1], ARGV[1])
