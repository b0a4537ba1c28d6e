"""Room turns: jobs, tool facade selection, agent providers and the operation journal."""
