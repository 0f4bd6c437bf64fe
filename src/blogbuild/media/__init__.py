"""Images, social cards and the shipped browser assets."""
