export { capturedMessage, MockUpstream, type MockReply, type MockRequest } from './mock-upstream';
