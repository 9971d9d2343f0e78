void main(){}
