"""The app's widgets, one per module; each renders what the document and selection say."""
