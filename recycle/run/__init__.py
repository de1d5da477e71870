"""The run stage: sessions of a loaded game, batches of seeded games, transcripts, replay and scenarios."""
