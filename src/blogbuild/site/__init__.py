"""The Site made from posts: publishing rules, ordering, taxonomies, series, archives."""
