"""What is rendered: the template environment and plan, feeds, the search index, theme options."""
