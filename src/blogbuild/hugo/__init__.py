"""Everything that knows Hugo: its config, what blogbuild leaves unused, the Go-template translator."""
