"""The server: tables persisted in a database, played over HTTP and websockets."""
