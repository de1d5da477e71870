"""The analysis stage: statistics, heuristics and card-flow graphs of batches of played games."""
