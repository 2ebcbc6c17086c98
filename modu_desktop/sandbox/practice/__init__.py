"""What makes the sandbox a place to practise: the fake "Deploy" workflow, the practice site that
shows a saved page, and the accounts' avatars."""
