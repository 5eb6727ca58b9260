import { MainScreen } from '@/components/main/main-screen';

export default function MainPage() {
  return <MainScreen />;
}
