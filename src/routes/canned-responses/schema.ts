export const CANNED_RESPONSES_TAG = "Canned responses";
