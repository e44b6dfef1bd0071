import CaptionAssistant

print("caption-assistant \(CaptionAssistantVersion.current)")
