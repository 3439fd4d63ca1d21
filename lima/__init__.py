"""Lima (Mali-200/400) PP fragment-shader codec."""
