"""Reports: the document (Markdown and HTML), figures and their facets, one module per
report kind."""
