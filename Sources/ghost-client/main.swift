// ghost-client: the terminal client for ghostd. Everything is in GhostClient.
import GhostClient

ClientApp.exit(ClientApp.main(CommandLine.arguments))
