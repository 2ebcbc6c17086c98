"""Nothing is lost: the save queue, start-up recovery, single instance."""
