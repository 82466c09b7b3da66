// The web client (placeholder until it lands).
