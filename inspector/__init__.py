"""spvinspect: the terminal inspector and its command line."""
