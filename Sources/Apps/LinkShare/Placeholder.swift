// Placeholder until this app is written.
