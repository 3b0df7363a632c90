"""Statistics: intervals for clustered rates, the analysis tables, and verdicts."""
